import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { OutboundEmailsRepository } from '#core/mail/outbound-emails.repository.js';
import { Database } from '#database/database.js';
import { EmailHandOff } from './email-hand-off.js';

/** E-mails relayed per transaction; a full batch is followed by the next at once. */
export const EMAIL_RELAY_BATCH = 100;
/** The longest wait between two looks at the outbox (at most 1 s, so an e-mail leaves within a second). */
export const EMAIL_RELAY_POLL_MS = 500;

/**
 * The e-mail outbox relay (D10): hands committed outbound_emails rows to the `emails` queue
 * (job id = row id), or to the in-process runner when the API runs without Redis. The rows stay
 * locked (FOR UPDATE SKIP LOCKED) until they are queued and marked relayed in the same
 * transaction, so several workers relay side by side without repeating each other; if queueing
 * fails, nothing is marked and the rows are taken again at the next look.
 * A row queued twice (a crash between queueing and commit) is one job: same job id.
 */
@Injectable()
export class EmailRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailRelay.name);
  private readonly stop = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly emails: OutboundEmailsRepository,
    private readonly queue: EmailHandOff,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.loop();
  }

  /** Before the database and the queues close (their shutdown hooks run after this). */
  async onModuleDestroy(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  /** Relays one batch; returns how many e-mails it handed to the queue. */
  relayOnce(): Promise<number> {
    return this.database.transactional(async () => {
      const ids = await this.emails.lockUnrelayed(EMAIL_RELAY_BATCH);
      if (ids.length === 0) return 0;
      await this.queue.handOff(ids);
      await this.emails.markRelayed(ids, new Date());
      return ids.length;
    });
  }

  private async loop(): Promise<void> {
    while (!this.stop.signal.aborted) {
      try {
        if ((await this.relayOnce()) === EMAIL_RELAY_BATCH) continue;
      } catch (error) {
        this.logger.error(`E-mail relay failed: ${(error as Error).message}`);
      }
      await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, EMAIL_RELAY_POLL_MS);
      this.stop.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }
}
