import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { MaintenanceJob, PURGE_IDEMPOTENCY_EVERY_MS, PURGE_NOTICES_EVERY_MS, type MaintenanceJobName } from '#queue/queues.js';
import { MaintenanceTasks } from '../maintenance-tasks.js';

/** The worker's repeating maintenance jobs on this process's timers: at start, then at the same periods. */
@Injectable()
export class InProcessMaintenance implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessMaintenance.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly tasks: MaintenanceTasks) {}

  onApplicationBootstrap(): void {
    this.every(MaintenanceJob.PurgeIdempotencyRecords, PURGE_IDEMPOTENCY_EVERY_MS);
    this.every(MaintenanceJob.PurgeNotices, PURGE_NOTICES_EVERY_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.running);
  }

  private every(name: MaintenanceJobName, periodMs: number): void {
    const run = () => {
      const task = this.tasks
        .run(name)
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error(`${name} failed: ${(error as Error).message}`))
        .finally(() => this.running.delete(task));
      this.running.add(task);
    };
    run();
    this.timers.push(setInterval(run, periodMs));
  }
}
