import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { EmailProcessor } from './processors/email.processor.js';
import { MaintenanceProcessor } from './processors/maintenance.processor.js';
import { NoticeDeliveryProcessor } from './processors/notice-delivery.processor.js';

/**
 * Lets the jobs under way finish at shutdown. @nestjs/bullmq closes its workers in
 * onApplicationShutdown, the hook in which the database closes too, in no order one can rely
 * on; closing them here, before any of those hooks, makes each running job end (and record its
 * attempt) while PostgreSQL and Redis are still there. Worker.close() takes no new job and waits
 * for the active ones; closing again later is a no-op.
 */
@Injectable()
export class WorkerDrain implements BeforeApplicationShutdown {
  constructor(
    private readonly notices: NoticeDeliveryProcessor,
    private readonly emails: EmailProcessor,
    private readonly maintenance: MaintenanceProcessor,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.notices, this.emails, this.maintenance].map((processor) => processor.worker.close()));
  }
}
