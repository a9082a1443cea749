import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { DeliveryRef } from '#core/webhooks/notice-deliveries.repository.js';
import { NoticeDeliveryService } from '#core/webhooks/notice-delivery.service.js';
import { noticeDeliveryJobId } from '#queue/queues.js';
import { NOTICE_DELIVERY_CONCURRENCY } from '../job-concurrency.js';
import { NoticeHandOff } from '../relay/notice-hand-off.js';
import { InProcessQueue, type InProcessJob, type InProcessQueueCounts } from './in-process-queue.js';

/**
 * Delivers notices in this process, without Redis: the relay and the sweep hand deliveries
 * straight to the same NoticeDeliveryService the worker's processor calls (one attempt per run,
 * signed, recorded), and a failed attempt runs again on a timer at the time the service set from
 * WEBHOOK_RETRY_SCHEDULE. The schedule is the database's, so after a restart the sweep hands the
 * PENDING deliveries over again when they are due.
 */
@Injectable()
export class InProcessNoticeDeliveries extends NoticeHandOff implements BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessNoticeDeliveries.name);
  private readonly queue = new InProcessQueue<DeliveryRef>('Notice delivery', NOTICE_DELIVERY_CONCURRENCY, (job) => this.deliver(job), this.logger);

  constructor(private readonly deliveries: NoticeDeliveryService) {
    super();
  }

  override handOff(deliveries: readonly DeliveryRef[]): Promise<void> {
    for (const delivery of deliveries) {
      const { businessId, noticeId, endpointId } = delivery;
      this.queue.add(noticeDeliveryJobId(noticeId, endpointId), { businessId, noticeId, endpointId });
    }
    return Promise.resolve();
  }

  counts(): InProcessQueueCounts {
    return this.queue.counts();
  }

  /**
   * After every onModuleDestroy, so the relay and the sweep have stopped handing over; before
   * the database closes: an attempt under way finishes and is recorded.
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }

  private async deliver({ data }: InProcessJob<DeliveryRef>): Promise<Date | null> {
    try {
      const outcome = await this.deliveries.deliver(data);
      switch (outcome.kind) {
        case 'delivered':
        case 'skipped':
          return null;
        case 'wait':
          return outcome.until;
        case 'retry':
          this.logger.warn(`Notice ${data.noticeId} to endpoint ${data.endpointId} failed (${outcome.error}); next attempt at ${outcome.retryAt.toISOString()}`);
          return outcome.retryAt;
        case 'failed':
          this.logger.error(`Notice ${data.noticeId} to endpoint ${data.endpointId} failed for good: ${outcome.error}`);
          return null;
      }
    } catch (error) {
      // Nothing was recorded (the database is away): the delivery is still PENDING and due, and
      // the sweep hands it over again.
      this.logger.error(`Notice ${data.noticeId} to endpoint ${data.endpointId}: ${(error as Error).message}`);
      return null;
    }
  }
}
