import { Module } from '@nestjs/common';
import { AppointmentsRepository } from './appointments.repository.js';

@Module({
  providers: [AppointmentsRepository],
  exports: [AppointmentsRepository],
})
export class AppointmentsModule {}
