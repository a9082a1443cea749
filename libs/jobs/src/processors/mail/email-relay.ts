import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { OutboundEmailsRepository } from '#core/mail/outbound-emails.repository.js';
import { Database } from '#database/database.js';
import type { JobToAdd } from '../../job-queue.js';
import { JobQueues } from '../../job-queues.js';
import { PollingLoop } from '../../polling-loop.js';
import { EmailJob, type SendEmailJobData } from '../../queues.js';

/** E-mails relayed per transaction; a full batch is followed by the next at once. */
export const EMAIL_RELAY_BATCH = 100;
/** The longest wait between two looks at the outbox (at most 1 s, so an e-mail leaves within a second). */
export const EMAIL_RELAY_POLL_MS = 500;

/**
 * The e-mail outbox relay (docs/design-record.md#d10): hands committed outbound_emails rows to the `emails` queue
 * (job id = row id), whichever driver runs it. The rows stay
 * locked (FOR UPDATE SKIP LOCKED) until they are queued and marked relayed in the same
 * transaction, so several workers relay side by side without repeating each other; if queueing
 * fails, nothing is marked and the rows are taken again at the next look.
 * A row queued twice (a crash between queueing and commit) is one job: same job id.
 */
@Injectable()
export class EmailRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailRelay.name);
  private readonly loop = new PollingLoop({
    what: 'E-mail relay',
    everyMs: EMAIL_RELAY_POLL_MS,
    step: async () => (await this.relayOnce()) === EMAIL_RELAY_BATCH,
    logger: this.logger,
  });

  constructor(
    private readonly database: Database,
    private readonly emails: OutboundEmailsRepository,
    private readonly queues: JobQueues,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Looks at the outbox now: the notice relay has just written e-mails. */
  wake(): void {
    this.loop.wake();
  }

  /** Before the database and the queues close (their shutdown hooks run after this). */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /** Relays one batch; returns how many e-mails it handed to the queue. */
  relayOnce(): Promise<number> {
    return this.database.transactional(async () => {
      const ids = await this.emails.lockUnrelayed(EMAIL_RELAY_BATCH);
      if (ids.length === 0) return 0;
      await this.queues.emails.add(ids.map(sendEmailJob));
      await this.emails.markRelayed(ids, new Date());
      return ids.length;
    });
  }
}

/** Job id = row id: an e-mail handed over twice is one job. */
export function sendEmailJob(emailId: string): JobToAdd<SendEmailJobData> {
  return { id: emailId, name: EmailJob.Send, data: { emailId } };
}
