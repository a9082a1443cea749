import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { systemLookup } from './delivery-target.js';
import { NoticeDeliveriesRepository } from './notice-deliveries.repository.js';
import { NoticeDeliveryBatches } from './notice-delivery-batches.js';
import { NoticeDeliveryService } from './notice-delivery.service.js';
import { NoticeRelayService } from './notice-relay.service.js';
import { HOST_LOOKUP, NOTICE_SEND_LIMITS, NOTICE_SEND_LIMITS_D9, NoticeSender } from './notice-sender.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [BusinessesModule, NoticesModule],
  providers: [
    { provide: HOST_LOOKUP, useValue: systemLookup },
    { provide: NOTICE_SEND_LIMITS, useValue: NOTICE_SEND_LIMITS_D9 },
    WebhookEndpointsRepository,
    NoticeDeliveriesRepository,
    NoticeDeliveryBatches,
    NoticeSender,
    NoticeRelayService,
    NoticeDeliveryService,
    WebhooksService,
  ],
  exports: [
    WebhookEndpointsRepository,
    NoticeDeliveriesRepository,
    NoticeSender,
    NoticeRelayService,
    NoticeDeliveryService,
    WebhooksService,
  ],
})
export class WebhooksModule {}
