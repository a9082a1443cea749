import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { MAINTENANCE_QUEUE, MaintenanceJob, PURGE_IDEMPOTENCY_EVERY_MS } from '#queue/queues.js';
import { PURGE_NOTICES_EVERY_MS } from '#queue/queues.js';

/** Registers the repeating maintenance jobs; upserting keeps one schedule however many workers start. */
@Injectable()
export class MaintenanceSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      MaintenanceJob.PurgeIdempotencyRecords,
      { every: PURGE_IDEMPOTENCY_EVERY_MS },
      { name: MaintenanceJob.PurgeIdempotencyRecords },
    );
    await this.queue.upsertJobScheduler(
      MaintenanceJob.PurgeNotices,
      { every: PURGE_NOTICES_EVERY_MS },
      { name: MaintenanceJob.PurgeNotices },
    );
  }
}
