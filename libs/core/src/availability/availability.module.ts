import { Module } from '@nestjs/common';
import { AvailabilityFactsRepository } from './availability-facts.repository.js';
import { FreeTimesService } from './free-times.service.js';
import { SlotAvailabilityService } from './slot-availability.service.js';
import { SlotFactsRepository } from './slot-facts.repository.js';

@Module({
  providers: [SlotAvailabilityService, SlotFactsRepository, FreeTimesService, AvailabilityFactsRepository],
  exports: [SlotAvailabilityService, FreeTimesService],
})
export class AvailabilityModule {}
