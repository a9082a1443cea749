import { Module } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ClockModule } from '../clock/clock.module.js';
import { MailModule } from '../mail/mail.module.js';
import { NoticesModule } from './outbox/notices.module.js';
import { PaginationModule } from '../pagination/pagination.module.js';
import { dnsLookup } from './endpoints/host-lookup.js';
import { NoticeDeliveriesRepository } from './delivery/notice-deliveries.repository.js';
import { NoticeDeliveriesService } from './delivery/notice-deliveries.service.js';
import { NoticeDeliveryBatches } from './delivery/notice-delivery-batches.js';
import { NoticeDeliveryService } from './delivery/notice-delivery.service.js';
import { NoticeRelayService } from './delivery/notice-relay.service.js';
import { NOTICE_SEND_LIMITS, NOTICE_SEND_LIMITS_D9, NoticeSender } from './delivery/notice-sender.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository.js';
import { WebhookSecretsResealer } from './endpoints/webhook-secrets-resealer.js';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service.js';
import { HOST_LOOKUP, WebhookResolver } from './endpoints/webhook-resolver.js';
import { WebhookTestPingService } from './endpoints/webhook-test-ping.service.js';

@Module({
  imports: [BusinessesModule, ClockModule, MailModule, NoticesModule, PaginationModule, SecretsModule],
  providers: [
    { provide: HOST_LOOKUP, useFactory: (config: AppConfig) => dnsLookup(config.WEBHOOK_DNS_SERVERS), inject: [AppConfig] },
    WebhookResolver,
    { provide: NOTICE_SEND_LIMITS, useValue: NOTICE_SEND_LIMITS_D9 },
    WebhookSecretsResealer,
    WebhookEndpointsRepository,
    NoticeDeliveriesRepository,
    NoticeDeliveryBatches,
    NoticeSender,
    NoticeRelayService,
    NoticeDeliveryService,
    NoticeDeliveriesService,
    WebhookEndpointsService,
    WebhookTestPingService,
  ],
  exports: [
    ClockModule,
    WebhookSecretsResealer,
    NOTICE_SEND_LIMITS,
    WebhookEndpointsRepository,
    NoticeDeliveriesRepository,
    NoticeSender,
    WebhookResolver,
    NoticeRelayService,
    NoticeDeliveryService,
    NoticeDeliveriesService,
    WebhookEndpointsService,
    WebhookTestPingService,
  ],
})
export class WebhooksModule {}
