import { Module } from '@nestjs/common';
import { PaginationModule } from '../pagination/pagination.module.js';
import { AppointmentReadsRepository } from './appointment-reads.repository.js';
import { AppointmentReadsService } from './appointment-reads.service.js';

/** GET /appointments and GET /appointments/{id}. */
@Module({
  imports: [PaginationModule],
  providers: [AppointmentReadsRepository, AppointmentReadsService],
  exports: [AppointmentReadsRepository, AppointmentReadsService],
})
export class AppointmentReadsModule {}
