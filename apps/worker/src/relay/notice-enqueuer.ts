import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { BulkJobOptions, Queue } from 'bullmq';
import type { DeliveryRef } from '#core/webhooks/notice-deliveries.repository.js';
import { NOTICES_QUEUE, NoticeJob, noticeDeliveryJobId, type NoticeDeliveryJobData, type NoticeJobName } from '#queue/queues.js';
import { NoticeHandOff } from './notice-hand-off.js';

/**
 * Options of every notice job. A finished job is removed at once: the database keeps the record
 * (deliveries and attempts), and a removed id is free for the sweep to add again when a replay
 * puts the delivery back to PENDING. The job's own attempts only cover an unexpected error (the
 * database away); the delivery schedule is the database's, rescheduling the job by delay.
 */
const NOTICE_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const satisfies BulkJobOptions;

/** Longer than this, Redis is taken as away: the deliveries stay due in the database for the sweep. */
const ENQUEUE_TIMEOUT_MS = 5_000;

/** Puts deliveries on the notices queue under their deterministic job ids (adding one twice is a no-op). */
@Injectable()
export class NoticeEnqueuer extends NoticeHandOff {
  constructor(@InjectQueue(NOTICES_QUEUE) private readonly queue: Queue<NoticeDeliveryJobData, unknown, NoticeJobName>) {
    super();
  }

  override async handOff(deliveries: readonly DeliveryRef[]): Promise<void> {
    if (deliveries.length === 0) return;
    const jobs = deliveries.map((delivery) => ({
      name: NoticeJob.Deliver,
      data: { businessId: delivery.businessId, noticeId: delivery.noticeId, endpointId: delivery.endpointId },
      opts: { ...NOTICE_JOB_OPTIONS, jobId: noticeDeliveryJobId(delivery.noticeId, delivery.endpointId) },
    }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not take the notice jobs within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.queue.addBulk(jobs), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
