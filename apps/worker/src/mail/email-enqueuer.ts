import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EMAIL_ATTEMPTS, EMAIL_BACKOFF_TYPE } from '#queue/email-retry.js';
import { EMAILS_QUEUE, EmailJob, type SendEmailJobData } from '#queue/queues.js';
import { EmailHandOff } from './email-hand-off.js';

/** Puts e-mails on the `emails` queue, job id = row id (adding one twice is a no-op), retried on the e-mail schedule. */
@Injectable()
export class EmailEnqueuer extends EmailHandOff {
  constructor(@InjectQueue(EMAILS_QUEUE) private readonly queue: Queue<SendEmailJobData, unknown, typeof EmailJob.Send>) {
    super();
  }

  override async handOff(emailIds: readonly string[]): Promise<void> {
    await this.queue.addBulk(
      emailIds.map((emailId) => ({
        name: EmailJob.Send,
        data: { emailId },
        opts: { jobId: emailId, attempts: EMAIL_ATTEMPTS, backoff: { type: EMAIL_BACKOFF_TYPE } },
      })),
    );
  }
}
