import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { JobQueue } from './job-queue.js';
import { JobsDriver } from './jobs-driver.js';
import {
  EMAILS_QUEUE,
  MAINTENANCE_QUEUE,
  NOTICES_QUEUE,
  QUEUE_NAMES,
  type MaintenanceJobData,
  type NoticeDeliveryJobData,
  type SendEmailJobData,
} from './queues.js';

/**
 * The service's job queues, from whichever driver the process picked. Lets the jobs under way
 * finish at shutdown: closing the queues in beforeApplicationShutdown (after every
 * onModuleDestroy, so the relays and the sweep have stopped adding; before
 * onApplicationShutdown, where the database and Redis close) makes each running job end and
 * record its outcome while PostgreSQL and Redis are still there.
 */
@Injectable()
export class JobQueues implements BeforeApplicationShutdown {
  readonly notices: JobQueue<NoticeDeliveryJobData>;
  readonly emails: JobQueue<SendEmailJobData>;
  readonly maintenance: JobQueue<MaintenanceJobData>;

  constructor(private readonly driver: JobsDriver) {
    this.notices = driver.queue(NOTICES_QUEUE);
    this.emails = driver.queue(EMAILS_QUEUE);
    this.maintenance = driver.queue(MAINTENANCE_QUEUE);
  }

  all(): JobQueue<unknown>[] {
    return QUEUE_NAMES.map((name) => this.driver.queue(name));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
    await this.driver.close();
  }
}
