import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { NoticeRelayService } from '#core/notices/delivery/notice-relay.service.js';
import { JobQueues } from '../../job-queues.js';
import { EmailRelay } from '../mail/email-relay.js';
import { PollingLoop } from '../../polling-loop.js';
import { NoticeListener } from './notice-listener.js';
import { noticeDeliveryJobs } from './notice-delivery-jobs.js';

/** Notices relayed per transaction; a full batch is followed by the next at once. */
export const RELAY_BATCH = 100;

/**
 * The outbox relay (docs/design-record.md#d9): moves recorded notices to the notices queue, one delivery per subscribed
 * endpoint, and writes the e-mails of appointment changes (handed to the e-mail relay at once). It looks at the outbox when a NOTIFY says a notice was committed, and at least every
 * NOTICE_RELAY_POLL_MS (≤ 1 s) whatever happens to the notifications. Nothing is lost at any
 * crash point: claiming, creating the deliveries and marking the notices relayed commit together,
 * and deliveries committed but not queued are queued by the DeliverySweep.
 */
@Injectable()
export class NoticeRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NoticeRelay.name);
  private readonly loop: PollingLoop;

  constructor(
    config: AppConfig,
    private readonly relay: NoticeRelayService,
    private readonly queues: JobQueues,
    private readonly listener: NoticeListener,
    private readonly emailRelay: EmailRelay,
  ) {
    this.loop = new PollingLoop({
      what: 'Notice relay',
      everyMs: config.NOTICE_RELAY_POLL_MS,
      step: async () => (await this.relayOnce()) === RELAY_BATCH,
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.listener.onNotify(() => this.loop.wake());
    this.loop.start();
  }

  /** Before the database and queues close (their shutdown hooks run after this). */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /** Relays one batch: returns how many notices it took out of the outbox. */
  async relayOnce(): Promise<number> {
    const batch = await this.relay.relayBatch(RELAY_BATCH);
    if (batch.emails > 0) this.emailRelay.wake();
    try {
      await this.queues.notices.add(noticeDeliveryJobs(batch.deliveries));
    } catch (error) {
      // Committed and due: the sweep queues them once the queue takes jobs again.
      this.logger.error(`Could not queue ${batch.deliveries.length} notice deliveries: ${(error as Error).message}`);
    }
    return batch.notices;
  }
}
