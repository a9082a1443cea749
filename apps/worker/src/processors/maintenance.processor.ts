import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { MAINTENANCE_QUEUE, type MaintenanceJobName } from '#queue/queues.js';
import { MaintenanceTasks } from '../maintenance-tasks.js';

/** Housekeeping jobs; a failure throws, so BullMQ records it and the next run tries again. */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor extends WorkerHost {
  constructor(private readonly tasks: MaintenanceTasks) {
    super();
  }

  process(job: Job<unknown, unknown, MaintenanceJobName>): Promise<{ purged: number }> {
    return this.tasks.run(job.name);
  }
}
