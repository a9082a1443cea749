import { Module } from '@nestjs/common';
import { AppointmentEmailFactsRepository } from './appointment-email-facts.repository.js';
import { AppointmentEmailOutboxService } from './appointment-email-outbox.service.js';
import { OutboundEmailsRepository } from './outbound-emails.repository.js';

@Module({
  providers: [OutboundEmailsRepository, AppointmentEmailFactsRepository, AppointmentEmailOutboxService],
  exports: [OutboundEmailsRepository, AppointmentEmailOutboxService],
})
export class MailModule {}
