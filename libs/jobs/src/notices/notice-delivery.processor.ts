import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NoticeDeliveryService } from '#core/webhooks/notice-delivery.service.js';
import { NOTICE_DELIVERY_CONCURRENCY } from '../job-concurrency.js';
import type { NextStep, QueuedJob } from '../job-queue.js';
import { JobQueues } from '../job-queues.js';
import type { NoticeDeliveryJobData } from '../queues.js';
import { noticeDeliveryStep } from './notice-delivery-step.js';

/**
 * Delivers change notices, one attempt per run (docs/design-record.md#d9). Every attempt is recorded by the service
 * before noticeDeliveryStep decides what the job does next. An unexpected error (the database
 * away) is thrown: nothing was recorded, and the delivery stays PENDING and due.
 */
@Injectable()
export class NoticeDeliveryProcessor implements OnModuleInit {
  constructor(
    private readonly queues: JobQueues,
    private readonly deliveries: NoticeDeliveryService,
  ) {}

  onModuleInit(): void {
    this.queues.notices.process((job) => this.process(job), { concurrency: NOTICE_DELIVERY_CONCURRENCY });
  }

  async process(job: QueuedJob<NoticeDeliveryJobData>): Promise<NextStep> {
    return noticeDeliveryStep(await this.deliveries.deliver(job.data), job.data);
  }
}
