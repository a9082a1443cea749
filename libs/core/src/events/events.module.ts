import { Module } from '@nestjs/common';
import { NoticesModule } from '../notices/notices.module.js';
import { PaginationModule } from '../pagination/pagination.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';

@Module({
  imports: [NoticesModule, PaginationModule, WebhooksModule],
  providers: [EventsRepository, EventsService],
  exports: [EventsService],
})
export class EventsModule {}
