import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { SWEEP_PAYLOAD } from '#core/notices/outbox/notice-channel.js';
import { NoticeDeliveriesRepository, type DueDelivery } from '#core/notices/delivery/notice-deliveries.repository.js';
import { JobQueues } from '../../job-queues.js';
import type { PollingLoop } from '../../polling-loop.js';
import { sweepLoop, sweepPages } from '../../sweep-pages.js';
import { noticeDeliveryJobs } from './notice-delivery-jobs.js';
import { NoticeListener } from './notice-listener.js';

/**
 * Queues every PENDING delivery that is due, at start and every NOTICE_SWEEP_EVERY_MS, and at
 * once when a replay NOTIFYs. Adding a job whose id is queued, delayed or running is a no-op, so
 * only the deliveries whose job is missing get one: those committed by a relay that crashed or
 * found Redis away before queueing them, those whose job a Redis restart lost, and replays.
 */
@Injectable()
export class DeliverySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliverySweep.name);
  private readonly loop: PollingLoop;

  constructor(
    config: AppConfig,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly queues: JobQueues,
    private readonly listener: NoticeListener,
  ) {
    this.loop = sweepLoop('Notice delivery sweep', config.NOTICE_SWEEP_EVERY_MS, () => this.sweepOnce(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.listener.onNotify((payload) => {
      if (payload === SWEEP_PAYLOAD) this.loop.wake();
    });
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Queues the deliveries due by `now` (by default the database's clock, the one replays and
   * the relay's transactions use); returns how many it handed to the queue.
   */
  sweepOnce(now: Date | null = null): Promise<number> {
    return sweepPages(
      (after: DueDelivery | null, limit) => this.deliveries.findDue(now, after, limit),
      (due) => this.queues.notices.add(noticeDeliveryJobs(due)),
    );
  }
}
