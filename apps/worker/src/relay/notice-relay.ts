import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { NoticeRelayService } from '#core/webhooks/notice-relay.service.js';
import { NoticeHandOff } from './notice-hand-off.js';
import { NoticeListener } from './notice-listener.js';
import { Wakeup } from './wakeup.js';

/** Notices relayed per transaction; a full batch is followed by the next at once. */
export const RELAY_BATCH = 100;

/**
 * The outbox relay (D9): moves recorded notices to the notices queue, one delivery per subscribed
 * endpoint. It looks at the outbox when a NOTIFY says a notice was committed, and at least every
 * NOTICE_RELAY_POLL_MS (≤ 1 s) whatever happens to the notifications. Nothing is lost at any
 * crash point: claiming, creating the deliveries and marking the notices relayed commit together,
 * and deliveries committed but not queued are queued by the DeliverySweep.
 */
@Injectable()
export class NoticeRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NoticeRelay.name);
  private readonly wakeup = new Wakeup();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly relay: NoticeRelayService,
    private readonly queue: NoticeHandOff,
    private readonly listener: NoticeListener,
  ) {}

  onApplicationBootstrap(): void {
    this.listener.onNotify(() => this.wakeup.fire());
    this.running = this.loop();
  }

  /** Before the database and queues close (their shutdown hooks run after this). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.wakeup.fire();
    await this.running;
  }

  /** Relays one batch: returns how many notices it took out of the outbox. */
  async relayOnce(): Promise<number> {
    const batch = await this.relay.relayBatch(RELAY_BATCH);
    try {
      await this.queue.handOff(batch.deliveries);
    } catch (error) {
      // Committed and due: the sweep queues them once Redis answers again.
      this.logger.error(`Could not queue ${batch.deliveries.length} notice deliveries: ${(error as Error).message}`);
    }
    return batch.notices;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        if ((await this.relayOnce()) === RELAY_BATCH) continue;
      } catch (error) {
        this.logger.error(`Notice relay failed: ${(error as Error).message}`);
      }
      await this.wakeup.wait(this.config.NOTICE_RELAY_POLL_MS);
    }
  }
}
