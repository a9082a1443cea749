import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module.js';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ClientsModule } from '../clients/clients.module.js';
import { NoticesModule } from '../notices/outbox/notices.module.js';
import { ServicesModule } from '../services/services.module.js';
import { StaffModule } from '../staff/staff.module.js';
import { AppointmentReadsModule } from './appointment-reads.module.js';
import { AppointmentStatusService } from './appointment-status.service.js';
import { AppointmentWritesService } from './appointment-writes.service.js';
import { AppointmentsModule } from './appointments.module.js';
import { BookingPartiesRepository } from './booking-parties.repository.js';

/** Booking, reschedule, cancel and the metadata's replacement (the API), and the dashboard's status changes (the admin). */
@Module({
  imports: [
    AppointmentsModule,
    AppointmentReadsModule,
    AvailabilityModule,
    BusinessesModule,
    ClientsModule,
    NoticesModule,
    ServicesModule,
    StaffModule,
  ],
  providers: [AppointmentWritesService, AppointmentStatusService, BookingPartiesRepository],
  exports: [AppointmentWritesService, AppointmentStatusService],
})
export class AppointmentWritesModule {}
