import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { NoticeDeliveryService, type DeliveryOutcome } from '#core/webhooks/notice-delivery.service.js';
import { NOTICES_QUEUE, type NoticeDeliveryJobData, type NoticeJobName } from '#queue/queues.js';
import { NOTICE_DELIVERY_CONCURRENCY } from '../job-concurrency.js';

/** The last attempt of a delivery failed; it is recorded, and the job fails without BullMQ retries. */
export class NoticeDeliveryFailedError extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = 'NoticeDeliveryFailedError';
  }
}

/**
 * Delivers change notices, one attempt per run (D9). Every attempt is recorded by the service
 * before this decides what the job does next: a failure with attempts left moves the same job to
 * the delayed set until the next attempt is due (BullMQ's manual rescheduling: moveToDelayed, then
 * DelayedError), and the last failure is thrown, so nothing fails silently.
 *
 * A short lock, renewed while the attempt runs (at most 15 s), lets another worker take the job
 * over soon after this process dies mid-attempt: the notice is sent again, with the same id.
 */
@Processor(NOTICES_QUEUE, { concurrency: NOTICE_DELIVERY_CONCURRENCY, lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 })
export class NoticeDeliveryProcessor extends WorkerHost {
  private readonly logger = new Logger(NoticeDeliveryProcessor.name);

  constructor(private readonly deliveries: NoticeDeliveryService) {
    super();
  }

  async process(job: Job<NoticeDeliveryJobData, DeliveryOutcome, NoticeJobName>, token?: string): Promise<DeliveryOutcome> {
    const outcome = await this.deliveries.deliver(job.data);
    switch (outcome.kind) {
      case 'delivered':
      case 'skipped':
        return outcome;
      case 'wait':
        await job.moveToDelayed(outcome.until.getTime(), token);
        throw new DelayedError();
      case 'retry':
        this.logger.warn(`Notice ${job.data.noticeId} to endpoint ${job.data.endpointId} failed (${outcome.error}); next attempt at ${outcome.retryAt.toISOString()}`);
        await job.moveToDelayed(outcome.retryAt.getTime(), token);
        throw new DelayedError();
      case 'failed':
        throw new NoticeDeliveryFailedError(`Notice ${job.data.noticeId} to endpoint ${job.data.endpointId} failed for good: ${outcome.error}`);
    }
  }
}
