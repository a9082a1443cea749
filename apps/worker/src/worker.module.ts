import { Module, type DynamicModule } from '@nestjs/common';
import { loadConfig, type AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { ServedContractModule } from '#contract/served-contract.module.js';
import { JsonLogsModule } from '#core/logging/json-logs.js';
import { DatabaseModule } from '#database/database.module.js';
import { enableExtensions } from '#extensions/index.js';
import { JobProcessingModule } from '#jobs/processors/job-processing.module.js';
import { JobsModule } from '#jobs/jobs.module.js';

/** The worker runs the service's jobs on BullMQ: notices, e-mails and housekeeping. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        // The enabled extensions' notice types are sent as the core's (the API records them); the
        // worker loads none of their modules.
        ServedContractModule.forRoot(enableExtensions(config.EXTENSIONS)),
        JsonLogsModule,
        DatabaseModule.forRoot('scheduling-worker'),
        JobsModule.forRoot({ driver: 'bullmq', redis: 'own-connections' }),
        JobProcessingModule,
      ],
    };
  }
}
