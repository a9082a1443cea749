import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { IdempotencyRepository } from '#core/idempotency/idempotency.repository.js';
import { NOTICE_RETENTION_DAYS } from '#core/notices/notice-channel.js';
import { NoticesRepository } from '#core/notices/notices.repository.js';
import { MAINTENANCE_QUEUE, MaintenanceJob, type MaintenanceJobName } from '#queue/queues.js';

/** Housekeeping jobs; a failure throws, so BullMQ records it and the next run tries again. */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly notices: NoticesRepository,
  ) {
    super();
  }

  async process(job: Job<unknown, unknown, MaintenanceJobName>): Promise<{ purged: number }> {
    switch (job.name) {
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
