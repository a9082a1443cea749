import { Module } from '@nestjs/common';
import { AppointmentsModule } from '../appointments/appointments.module.js';
import { AppointmentEmailOutboxService } from './appointment-email-outbox.service.js';
import { OutboundEmailsRepository } from './outbound-emails.repository.js';

@Module({
  imports: [AppointmentsModule],
  providers: [OutboundEmailsRepository, AppointmentEmailOutboxService],
  exports: [OutboundEmailsRepository, AppointmentEmailOutboxService],
})
export class MailModule {}
