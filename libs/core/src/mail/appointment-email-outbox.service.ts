import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { NoticeEmails } from '#database/entities/notice.entity.js';
import { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';
import { newId } from '#database/new-id.js';
import { AppointmentEmailFactsRepository } from './appointment-email-facts.repository.js';
import { composeAppointmentEmails } from './appointment-emails.js';
import { OutboundEmailsRepository } from './outbound-emails.repository.js';

/** A relayed notice of an appointment change, and the e-mails it names. */
export interface AppointmentChangeNotice {
  /** The appointment as it is after the change (for a reschedule, the new one). */
  appointmentId: string;
  emails: NoticeEmails;
}

/**
 * Writes the e-mails of appointment changes from their notices, in the worker, as the relay takes
 * the notices out of the outbox (docs/design-record.md#d10, docs/design-record.md#write-path): the rows are committed with the relay's
 * transaction and sent by the e-mail relay and queue, so a mail failure never touches the change,
 * and the API renders no e-mail. Texts and invitations say what the change made of the
 * appointment (its kind and status travel with the notice) and name the parties as they are when
 * the notice is relayed, a moment later.
 */
@Injectable()
export class AppointmentEmailOutboxService {
  constructor(
    private readonly config: AppConfig,
    private readonly facts: AppointmentEmailFactsRepository,
    private readonly emails: OutboundEmailsRepository,
  ) {}

  /** Writes the e-mails of these changes, in one read and one insert; returns how many. */
  async writeFor(changes: readonly AppointmentChangeNotice[]): Promise<number> {
    if (changes.length === 0) return 0;
    const facts = await this.facts.load([...new Set(changes.map((change) => change.appointmentId))]);
    const now = new Date();
    const rows = changes.flatMap((change) => {
      const stored = facts.get(change.appointmentId);
      if (!stored) return [];
      const { appointment } = stored;
      return (
        composeAppointmentEmails({
          ...stored,
          kind: change.emails.kind,
          appointment: { ...appointment, status: change.emails.status },
          mailFrom: this.config.MAIL_FROM,
        })
          // The write asked that the client get no e-mail (docs/design-record.md#d23); the business's still goes.
          .filter((email) => change.emails.notifyClient !== false || email.audience !== 'CLIENT')
          .map((email) =>
            Object.assign(new OutboundEmailEntity(), {
              id: newId(),
              businessId: appointment.businessId,
              appointmentId: appointment.id,
              kind: change.emails.kind,
              ...email,
              calendar: null,
              createdAt: now,
              relayedAt: null,
              sentAt: null,
              attempts: 0,
              lastError: null,
            }),
          )
      );
    });
    await this.emails.insert(rows);
    return rows.length;
  }
}
