import { Module } from '@nestjs/common';
import { SlotAvailabilityService } from './slot-availability.service.js';
import { SlotFactsRepository } from './slot-facts.repository.js';

@Module({
  providers: [SlotAvailabilityService, SlotFactsRepository],
  exports: [SlotAvailabilityService],
})
export class AvailabilityModule {}
