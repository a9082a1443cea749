import { Injectable, Logger } from '@nestjs/common';
import { IdempotencyRepository } from '#core/idempotency/idempotency.repository.js';
import { NOTICE_RETENTION_DAYS } from '#core/notices/notice-channel.js';
import { NoticesRepository } from '#core/notices/notices.repository.js';
import { MaintenanceJob, type MaintenanceJobName } from '../queues.js';

/** The housekeeping itself, run by the maintenance queue's processor. */
@Injectable()
export class MaintenanceTasks {
  private readonly logger = new Logger(MaintenanceTasks.name);

  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly notices: NoticesRepository,
  ) {}

  async run(name: MaintenanceJobName): Promise<{ purged: number }> {
    switch (name) {
      case MaintenanceJob.PurgeIdempotencyRecords: {
        const purged = await this.idempotency.purgeExpired(new Date());
        if (purged > 0) this.logger.log(`Purged ${purged} expired idempotency records`);
        return { purged };
      }
      case MaintenanceJob.PurgeNotices: {
        const cutoff = new Date(Date.now() - NOTICE_RETENTION_DAYS * 24 * 60 * 60 * 1000);
        const purged = await this.notices.purgeCreatedBefore(cutoff);
        if (purged > 0) this.logger.log(`Purged ${purged} change notices older than ${NOTICE_RETENTION_DAYS} days`);
        return { purged };
      }
    }
  }
}
