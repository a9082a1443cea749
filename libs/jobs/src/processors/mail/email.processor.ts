import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EMAIL_SEND_CONCURRENCY } from '../../job-concurrency.js';
import type { NextStep, QueuedJob } from '../../job-queue.js';
import { JobQueues } from '../../job-queues.js';
import type { SendEmailJobData } from '../../queues.js';
import { emailSendStep, type EmailSendResult } from './email-send-step.js';
import { EmailSender } from './email-sender.js';

/**
 * Sends queued e-mails (docs/design-record.md#d10). A send that did not go through runs again on the e-mail schedule
 * (emailSendStep); the attempts and the last error are on the outbound_emails row.
 */
@Injectable()
export class EmailProcessor implements OnModuleInit {
  constructor(
    private readonly queues: JobQueues,
    private readonly sender: EmailSender,
  ) {}

  onModuleInit(): void {
    this.queues.emails.process((job) => this.process(job), { concurrency: EMAIL_SEND_CONCURRENCY });
  }

  async process(job: QueuedJob<SendEmailJobData>): Promise<NextStep> {
    let result: EmailSendResult;
    try {
      result = await this.sender.send(job.data.emailId);
    } catch {
      // The sender recorded the failure on the row and logged it.
      result = 'not-sent';
    }
    return emailSendStep(result, job.data.emailId, job.attemptsMade);
  }
}
