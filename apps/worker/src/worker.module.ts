import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { QueueModule } from '#queue/queue.module.js';
import { MaintenanceSchedule } from './maintenance-schedule.js';
import { MaintenanceProcessor } from './processors/maintenance.processor.js';

@Module({})
export class WorkerModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot('scheduling-worker'), QueueModule.forRoot(), IdempotencyModule],
      providers: [MaintenanceProcessor, MaintenanceSchedule],
    };
  }
}
