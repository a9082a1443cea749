import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { MailModule } from '#core/mail/mail.module.js';
import { NoticesModule } from '#core/notices/notices.module.js';
import { WebhooksModule } from '#core/webhooks/webhooks.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { QueueModule } from '#queue/queue.module.js';
import { EmailRelay } from './mail/email-relay.js';
import { EmailSender } from './mail/email-sender.js';
import { mailTransportProvider } from './mail/mail-transport.js';
import { MaintenanceSchedule } from './maintenance-schedule.js';
import { EmailProcessor } from './processors/email.processor.js';
import { MaintenanceProcessor } from './processors/maintenance.processor.js';
import { NoticeDeliveryProcessor } from './processors/notice-delivery.processor.js';
import { DeliverySweep } from './relay/delivery-sweep.js';
import { NoticeEnqueuer } from './relay/notice-enqueuer.js';
import { NoticeListener } from './relay/notice-listener.js';
import { NoticeRelay } from './relay/notice-relay.js';

@Module({})
export class WorkerModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot('scheduling-worker'), QueueModule.forRoot(), IdempotencyModule, NoticesModule, WebhooksModule, MailModule],
      providers: [MaintenanceProcessor, MaintenanceSchedule, NoticeListener, NoticeEnqueuer, NoticeRelay, DeliverySweep, NoticeDeliveryProcessor, mailTransportProvider, EmailSender, EmailProcessor, EmailRelay],
    };
  }
}
