import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { MAINTENANCE_QUEUE } from './queues.js';
import { NOTICES_QUEUE } from './queues.js';
import { EMAILS_QUEUE } from './queues.js';

/** BullMQ on the service's Redis, with every queue the service uses registered. */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            connection: { url: config.REDIS_URL },
            prefix: config.QUEUE_PREFIX,
            defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
          }),
        }),
        BullModule.registerQueue({ name: MAINTENANCE_QUEUE }),
        BullModule.registerQueue({ name: NOTICES_QUEUE }),
        BullModule.registerQueue({ name: EMAILS_QUEUE }),
      ],
      exports: [BullModule],
    };
  }
}
