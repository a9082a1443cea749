import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { MailModule } from '#core/mail/mail.module.js';
import { NoticesModule } from '#core/notices/notices.module.js';
import { WebhooksModule } from '#core/webhooks/webhooks.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { QueueModule } from '#queue/queue.module.js';
import { DELIVERY_PROVIDERS } from './delivery-providers.js';
import { EmailEnqueuer } from './mail/email-enqueuer.js';
import { EmailHandOff } from './mail/email-hand-off.js';
import { MaintenanceSchedule } from './maintenance-schedule.js';
import { EmailProcessor } from './processors/email.processor.js';
import { MaintenanceProcessor } from './processors/maintenance.processor.js';
import { NoticeDeliveryProcessor } from './processors/notice-delivery.processor.js';
import { NoticeEnqueuer } from './relay/notice-enqueuer.js';
import { NoticeHandOff } from './relay/notice-hand-off.js';
import { WorkerDrain } from './worker-drain.js';

@Module({})
export class WorkerModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot('scheduling-worker'), QueueModule.forRoot(), IdempotencyModule, NoticesModule, WebhooksModule, MailModule],
      providers: [
        ...DELIVERY_PROVIDERS,
        { provide: NoticeHandOff, useClass: NoticeEnqueuer },
        { provide: EmailHandOff, useClass: EmailEnqueuer },
        MaintenanceSchedule,
        MaintenanceProcessor,
        NoticeDeliveryProcessor,
        EmailProcessor,
        WorkerDrain,
      ],
    };
  }
}
