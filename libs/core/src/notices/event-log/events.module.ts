import { Module } from '@nestjs/common';
import { NoticesModule } from '../outbox/notices.module.js';
import { PaginationModule } from '../../pagination/pagination.module.js';
import { WebhooksModule } from '../webhooks.module.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';

@Module({
  imports: [NoticesModule, PaginationModule, WebhooksModule],
  providers: [EventsRepository, EventsService],
  exports: [EventsService],
})
export class EventsModule {}
