import { Module } from '@nestjs/common';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

@Module({
  providers: [WebhookEndpointsRepository],
  exports: [WebhookEndpointsRepository],
})
export class WebhooksModule {}
