import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { emailRetryDelayMs } from '#queue/email-retry.js';
import { EMAILS_QUEUE, type EmailJobName, type SendEmailJobData } from '#queue/queues.js';
import { EMAIL_SEND_CONCURRENCY } from '../job-concurrency.js';
import { EmailSender, type SendOutcome } from '../mail/email-sender.js';

/**
 * Sends queued e-mails (D10). A failed send throws, so BullMQ retries the job on the e-mail
 * schedule; the attempts and the last error are on the outbound_emails row.
 */
@Processor(EMAILS_QUEUE, { concurrency: EMAIL_SEND_CONCURRENCY, settings: { backoffStrategy: emailRetryDelayMs } })
export class EmailProcessor extends WorkerHost {
  constructor(private readonly sender: EmailSender) {
    super();
  }

  process(job: Job<SendEmailJobData, SendOutcome, EmailJobName>): Promise<SendOutcome> {
    return this.sender.send(job.data.emailId);
  }
}
