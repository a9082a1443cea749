import { Module } from '@nestjs/common';
import { NoticesModule } from '../notices/outbox/notices.module.js';
import { AppointmentsRepository } from './appointments.repository.js';

@Module({
  imports: [NoticesModule],
  providers: [AppointmentsRepository],
  exports: [AppointmentsRepository],
})
export class AppointmentsModule {}
