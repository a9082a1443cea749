import { Module } from '@nestjs/common';
import { ConsoleSignInsRepository } from '#core/console-auth/console-sign-ins.repository.js';
import { OAuthGrantsRepository } from '#core/oauth/oauth-grants.repository.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { MailModule } from '#core/mail/mail.module.js';
import { NoticesModule } from '#core/notices/outbox/notices.module.js';
import { WebhooksModule } from '#core/notices/webhooks.module.js';
import { EmailProcessor } from './mail/email.processor.js';
import { EmailRelay } from './mail/email-relay.js';
import { EmailSender } from './mail/email-sender.js';
import { EmailSweep } from './mail/email-sweep.js';
import { mailTransportProvider, sandboxMailTransportProvider } from './mail/mail-transport.js';
import { MaintenanceProcessor } from './maintenance/maintenance.processor.js';
import { MaintenanceSchedule } from './maintenance/maintenance-schedule.js';
import { MaintenanceTasks } from './maintenance/maintenance-tasks.js';
import { DeliverySweep } from './notices/delivery-sweep.js';
import { NoticeDeliveryProcessor } from './notices/notice-delivery.processor.js';
import { NoticeListener } from './notices/notice-listener.js';
import { NoticeRelay } from './notices/notice-relay.js';

/**
 * Everything that runs the service's jobs, whichever driver the process picked (JobsModule): the
 * outbox relays, the delivery sweep, the processors of notices, e-mails and housekeeping, and the
 * maintenance schedule. The worker imports it with BullMQ; the API imports it with the in-memory
 * driver when it runs without Redis. Needs the app's ConfigModule, DatabaseModule and JobsModule.
 */
@Module({
  imports: [IdempotencyModule, NoticesModule, WebhooksModule, MailModule],
  providers: [
    NoticeListener,
    NoticeRelay,
    DeliverySweep,
    NoticeDeliveryProcessor,
    mailTransportProvider,
    sandboxMailTransportProvider,
    EmailSender,
    EmailRelay,
    EmailProcessor,
    EmailSweep,
    ConsoleSignInsRepository,
    OAuthGrantsRepository,
    MaintenanceTasks,
    MaintenanceProcessor,
    MaintenanceSchedule,
  ],
})
export class JobProcessingModule {}
