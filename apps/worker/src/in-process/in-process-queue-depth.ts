import { Injectable } from '@nestjs/common';
import { EMAILS_QUEUE, NOTICES_QUEUE } from '#queue/queues.js';
import { QueueDepth, type QueueJobCounts } from '#queue/queue-depth.js';
import { InProcessEmails } from './in-process-emails.js';
import { InProcessNoticeDeliveries } from './in-process-notice-deliveries.js';

/** The in-process queues' jobs, under the names of the BullMQ queues they stand in for. */
@Injectable()
export class InProcessQueueDepth extends QueueDepth {
  constructor(
    private readonly notices: InProcessNoticeDeliveries,
    private readonly emails: InProcessEmails,
  ) {
    super();
  }

  override jobCounts(): Promise<QueueJobCounts[]> {
    return Promise.resolve([
      { queue: NOTICES_QUEUE, counts: this.notices.counts() },
      { queue: EMAILS_QUEUE, counts: this.emails.counts() },
    ]);
  }
}
