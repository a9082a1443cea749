import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { SWEEP_PAYLOAD } from '#core/notices/notice-channel.js';
import { NoticeDeliveriesRepository } from '#core/webhooks/notice-deliveries.repository.js';
import { NoticeHandOff } from './notice-hand-off.js';
import { NoticeListener } from './notice-listener.js';
import { Wakeup } from './wakeup.js';

/** Due deliveries queued per page, and pages per sweep (the rest waits for the next sweep). */
const SWEEP_PAGE = 500;
const SWEEP_MAX_PAGES = 20;

/**
 * Queues every PENDING delivery that is due, at start and every NOTICE_SWEEP_EVERY_MS, and at
 * once when a replay NOTIFYs. Adding a job whose id is queued, delayed or running is a no-op, so
 * only the deliveries whose job is missing get one: those committed by a relay that crashed or
 * found Redis away before queueing them, those whose job a Redis restart lost, and replays.
 */
@Injectable()
export class DeliverySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliverySweep.name);
  private readonly wakeup = new Wakeup();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly queue: NoticeHandOff,
    private readonly listener: NoticeListener,
  ) {}

  onApplicationBootstrap(): void {
    this.listener.onNotify((payload) => {
      if (payload === SWEEP_PAYLOAD) this.wakeup.fire();
    });
    this.running = this.loop();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.wakeup.fire();
    await this.running;
  }

  /**
   * Queues the deliveries due by `now` (by default the database's clock, the one replays and
   * the relay's transactions use); returns how many it handed to the queue.
   */
  async sweepOnce(now: Date | null = null): Promise<number> {
    let after: { nextAttemptAt: Date; id: string } | null = null;
    let queued = 0;
    for (let page = 0; page < SWEEP_MAX_PAGES; page += 1) {
      const due = await this.deliveries.findDue(now, after, SWEEP_PAGE);
      await this.queue.handOff(due);
      queued += due.length;
      if (due.length < SWEEP_PAGE) break;
      after = due[due.length - 1];
    }
    return queued;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.sweepOnce();
      } catch (error) {
        this.logger.error(`Notice delivery sweep failed: ${(error as Error).message}`);
      }
      await this.wakeup.wait(this.config.NOTICE_SWEEP_EVERY_MS);
    }
  }
}
