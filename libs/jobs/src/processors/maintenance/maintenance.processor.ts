import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { NextStep, QueuedJob } from '../../job-queue.js';
import { JobQueues } from '../../job-queues.js';
import type { MaintenanceJobData, MaintenanceJobName } from '../../queues.js';
import { MaintenanceTasks } from './maintenance-tasks.js';

/** Housekeeping jobs, one at a time; a failure throws, so it is recorded and the next run tries again. */
@Injectable()
export class MaintenanceProcessor implements OnModuleInit {
  constructor(
    private readonly queues: JobQueues,
    private readonly tasks: MaintenanceTasks,
  ) {}

  onModuleInit(): void {
    this.queues.maintenance.process((job) => this.process(job), { concurrency: 1 });
  }

  async process(job: QueuedJob<MaintenanceJobData>): Promise<NextStep> {
    return { kind: 'done', result: await this.tasks.run(job.name as MaintenanceJobName) };
  }
}
