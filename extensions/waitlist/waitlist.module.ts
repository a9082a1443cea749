import { Module } from '@nestjs/common';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { NoticesModule } from '#core/notices/outbox/notices.module.js';
import { WaitlistRepository } from './waitlist.repository.js';
import { WaitlistService } from './waitlist.service.js';

/** The waitlist's rules and queries, for the API's routes and the admin's commands. */
@Module({
  imports: [BusinessesModule, NoticesModule],
  providers: [WaitlistRepository, WaitlistService],
  exports: [WaitlistService],
})
export class WaitlistModule {}
