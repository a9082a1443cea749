import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { EMAIL_ATTEMPTS, emailRetryDelayMs } from '#queue/email-retry.js';
import { EMAIL_SEND_CONCURRENCY } from '../job-concurrency.js';
import { EmailHandOff } from '../mail/email-hand-off.js';
import { EmailSender } from '../mail/email-sender.js';
import { InProcessQueue, type InProcessJob, type InProcessQueueCounts } from './in-process-queue.js';

/**
 * Sends e-mails in this process, without Redis: the relay hands the rows straight to the same
 * EmailSender (SMTP_URL, or files in MAIL_DIR) the worker's processor uses, and a failed send is
 * tried again on the e-mail schedule, EMAIL_ATTEMPTS times in all. Retries wait in memory only:
 * an e-mail still waiting for one when the process stops is not sent after a restart (the worker
 * with Redis keeps them).
 */
@Injectable()
export class InProcessEmails extends EmailHandOff implements BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessEmails.name);
  private readonly queue = new InProcessQueue<string>('E-mail', EMAIL_SEND_CONCURRENCY, (job) => this.send(job), this.logger);

  constructor(private readonly sender: EmailSender) {
    super();
  }

  override handOff(emailIds: readonly string[]): Promise<void> {
    for (const id of emailIds) this.queue.add(id, id);
    return Promise.resolve();
  }

  counts(): InProcessQueueCounts {
    return this.queue.counts();
  }

  /**
   * After every onModuleDestroy, so the relay has stopped handing over; before the database
   * closes: a send under way finishes and is recorded.
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }

  private async send({ data: emailId, attemptsMade }: InProcessJob<string>): Promise<Date | null> {
    try {
      await this.sender.send(emailId);
      return null;
    } catch {
      // The sender recorded the failure on the row and logged it.
      const made = attemptsMade + 1;
      if (made < EMAIL_ATTEMPTS) return new Date(Date.now() + emailRetryDelayMs(made));
      this.logger.error(`E-mail ${emailId} was not sent after ${made} attempts; giving up`);
      return null;
    }
  }
}
