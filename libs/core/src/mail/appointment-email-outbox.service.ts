import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import { OutboundEmailEntity, type OutboundEmailKind } from '#database/entities/outbound-email.entity.js';
import { newId } from '#database/new-id.js';
import { AppointmentsRepository } from '../appointments/appointments.repository.js';
import { composeAppointmentEmails, type AppointmentEmailFacts } from './appointment-emails.js';
import { OutboundEmailsRepository } from './outbound-emails.repository.js';

export interface AppointmentChange {
  kind: OutboundEmailKind;
  business: AppointmentEmailFacts['business'];
  /** The appointment as it is after the change (for a reschedule, the new one). */
  appointment: AppointmentEntity;
  staffName: string;
  client: AppointmentEmailFacts['client'];
  /** The start before a reschedule. */
  previousStartsAt?: Date;
}

/**
 * Queues the e-mails of an appointment change as outbox rows of the change's own transaction
 * (docs/design-record.md#d10): they exist if and only if the change commits, and the worker sends them afterwards, so a
 * mail failure never fails or undoes the write.
 */
@Injectable()
export class AppointmentEmailOutboxService {
  constructor(
    private readonly config: AppConfig,
    private readonly appointments: AppointmentsRepository,
    private readonly emails: OutboundEmailsRepository,
  ) {}

  async queue(change: AppointmentChange): Promise<void> {
    const { appointment } = change;
    // An appointment that was never rescheduled (every new booking) is a chain of its own: no
    // round trip to the database for what is already known.
    const chain =
      appointment.rescheduledFromId === null
        ? { originId: appointment.id, depth: 0 }
        : await this.appointments.rescheduleChain(appointment.businessId, appointment.id);
    const composed = composeAppointmentEmails({ ...change, chain, mailFrom: this.config.MAIL_FROM });
    const now = new Date();
    await this.emails.insert(
      composed.map((email) =>
        Object.assign(new OutboundEmailEntity(), {
          id: newId(),
          businessId: appointment.businessId,
          appointmentId: appointment.id,
          kind: change.kind,
          ...email,
          calendar: null,
          createdAt: now,
          relayedAt: null,
          sentAt: null,
          attempts: 0,
          lastError: null,
        }),
      ),
    );
  }
}
