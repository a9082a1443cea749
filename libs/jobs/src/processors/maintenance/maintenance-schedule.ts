import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JobQueues } from '../../job-queues.js';
import { MaintenanceJob, PURGE_IDEMPOTENCY_EVERY_MS, PURGE_NOTICES_EVERY_MS } from '../../queues.js';

/** Registers the repeating maintenance jobs; one schedule however many processes start. */
@Injectable()
export class MaintenanceSchedule implements OnApplicationBootstrap {
  constructor(private readonly queues: JobQueues) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.maintenance.repeat(MaintenanceJob.PurgeIdempotencyRecords, PURGE_IDEMPOTENCY_EVERY_MS);
    await this.queues.maintenance.repeat(MaintenanceJob.PurgeNotices, PURGE_NOTICES_EVERY_MS);
    await this.queues.maintenance.repeat(MaintenanceJob.PurgeEmails, PURGE_NOTICES_EVERY_MS);
    await this.queues.maintenance.repeat(MaintenanceJob.PurgeConsoleSignIns, PURGE_NOTICES_EVERY_MS);
    await this.queues.maintenance.repeat(MaintenanceJob.EndUnusableGrants, PURGE_NOTICES_EVERY_MS);
  }
}
