import { Module } from '@nestjs/common';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { MailModule } from '#core/mail/mail.module.js';
import { NoticesModule } from '#core/notices/notices.module.js';
import { WebhooksModule } from '#core/webhooks/webhooks.module.js';
import { QueueDepth } from '#queue/queue-depth.js';
import { DELIVERY_PROVIDERS } from '../delivery-providers.js';
import { EmailHandOff } from '../mail/email-hand-off.js';
import { NoticeHandOff } from '../relay/notice-hand-off.js';
import { InProcessEmails } from './in-process-emails.js';
import { InProcessMaintenance } from './in-process-maintenance.js';
import { InProcessNoticeDeliveries } from './in-process-notice-deliveries.js';
import { InProcessQueueDepth } from './in-process-queue-depth.js';

/**
 * The worker's delivery of notices and e-mails, and its housekeeping, for a process that runs
 * without Redis (IN_PROCESS_JOBS): the API imports it so that `npm start` needs no Redis. The
 * relays, the sweep, the sender and the mail code are the worker's own; only the hand-off differs.
 * Needs the ConfigModule and the DatabaseModule of the importing app.
 */
@Module({
  imports: [IdempotencyModule, NoticesModule, WebhooksModule, MailModule],
  providers: [
    ...DELIVERY_PROVIDERS,
    InProcessNoticeDeliveries,
    { provide: NoticeHandOff, useExisting: InProcessNoticeDeliveries },
    InProcessEmails,
    { provide: EmailHandOff, useExisting: InProcessEmails },
    InProcessMaintenance,
    { provide: QueueDepth, useClass: InProcessQueueDepth },
  ],
  exports: [QueueDepth],
})
export class InProcessJobsModule {}
