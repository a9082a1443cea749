import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { NoticeDeliveryService } from '#core/webhooks/notice-delivery.service.js';
import { NOTICE_SEND_LIMITS, type NoticeSendLimits } from '#core/webhooks/notice-sender.js';
import type { ConcurrencyLimiter, LimiterSlot } from '../concurrency-limiter.js';
import { NOTICE_DELIVERY_CONCURRENCY } from '../job-concurrency.js';
import type { NextStep, QueuedJob } from '../job-queue.js';
import { JobQueues } from '../job-queues.js';
import { JobsDriver } from '../jobs-driver.js';
import type { NoticeDeliveryJobData } from '../queues.js';
import { noticeDeliveryStep } from './notice-delivery-step.js';

/** Past the sender's own time limit, for the attempt's record: a slot a dead worker held is free after this. */
const ENDPOINT_SLOT_LEASE_MARGIN_MS = 45_000;

/** How long a delivery whose endpoint has every slot taken waits before it looks again: 1 to 2 s, spread out. */
export function endpointBusyDelayMs(random: () => number = Math.random): number {
  return 1_000 + Math.floor(random() * 1_000);
}

/**
 * Delivers change notices, one attempt per run (docs/design-record.md#d9). Every attempt is recorded by the service
 * before noticeDeliveryStep decides what the job does next. An unexpected error (the database
 * away) is thrown: nothing was recorded, and the delivery stays PENDING and due.
 *
 * Fair delivery (docs/design-record.md#d17): an attempt first takes one of its endpoint's
 * WEBHOOK_ENDPOINT_CONCURRENCY slots, shared by every worker. With none free the job waits a
 * second or two without an attempt, and its place among the worker's 20 goes to another
 * endpoint's notice, so a receiver that holds every request for 15 s cannot fill the worker.
 */
@Injectable()
export class NoticeDeliveryProcessor implements OnModuleInit {
  private readonly endpointSlots: ConcurrencyLimiter;

  constructor(
    private readonly queues: JobQueues,
    private readonly deliveries: NoticeDeliveryService,
    driver: JobsDriver,
    config: AppConfig,
    @Inject(NOTICE_SEND_LIMITS) limits: NoticeSendLimits,
  ) {
    this.endpointSlots = driver.limiter({
      name: 'notice-endpoint',
      cap: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      leaseMs: limits.totalTimeoutMs + ENDPOINT_SLOT_LEASE_MARGIN_MS,
    });
  }

  onModuleInit(): void {
    this.queues.notices.process((job) => this.process(job), { concurrency: NOTICE_DELIVERY_CONCURRENCY });
  }

  async process(job: QueuedJob<NoticeDeliveryJobData>): Promise<NextStep> {
    // The slot (Redis) and the delivery (PostgreSQL) are asked for together: one wait instead of
    // two before the send. Without a slot the lookup is dropped; it was one row of a batch.
    const found = this.deliveries.find(job.data);
    let slot: LimiterSlot | null;
    try {
      slot = await this.endpointSlots.acquire(job.data.endpointId);
    } catch (error) {
      found.catch(() => undefined);
      throw error;
    }
    if (!slot) {
      found.catch(() => undefined);
      return { kind: 'later', at: new Date(Date.now() + endpointBusyDelayMs()) };
    }
    try {
      return noticeDeliveryStep(await this.deliveries.deliver(job.data, found), job.data);
    } finally {
      // Given back without holding the job up: the attempt is over and recorded, and a slot whose
      // release is lost (Redis away) comes back anyway when its lease ends.
      slot.release().catch(() => undefined);
    }
  }
}
