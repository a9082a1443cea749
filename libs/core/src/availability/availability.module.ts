import { Module } from '@nestjs/common';
import { AppointmentsModule } from '../appointments/appointments.module.js';
import { StaffModule } from '../staff/staff.module.js';
import { SlotAvailabilityService } from './slot-availability.service.js';

@Module({
  imports: [StaffModule, AppointmentsModule],
  providers: [SlotAvailabilityService],
  exports: [SlotAvailabilityService],
})
export class AvailabilityModule {}
