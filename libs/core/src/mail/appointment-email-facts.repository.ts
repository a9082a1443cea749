import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import { defineStatement } from '#database/statement.js';
import type { AppointmentEmailFacts } from './appointment-emails.js';

/** What an appointment's e-mails are written from, but the change's kind and status (the notice has them). */
export type StoredEmailFacts = Omit<AppointmentEmailFacts, 'kind' | 'mailFrom' | 'appointment'> & {
  appointment: AppointmentEmailFacts['appointment'] & { id: string; businessId: string };
};

interface FactsRow {
  id: string;
  business_id: string;
  status: AppointmentStatus;
  starts_at: Date;
  ends_at: Date;
  service_name: string;
  business_name: string;
  timezone: string;
  locale: string | null;
  notification_email: string | null;
  staff_name: string;
  client_name: string;
  client_email: string | null;
  previous_starts_at: Date | null;
  origin_id: string;
  depth: number;
}

// For a relay's whole batch in one round trip: each appointment with its business, staff member,
// client, the start it was moved from, and the first appointment of its reschedule chain (the
// calendar event's identity) with how many moves led to it (the event's version).
const EMAIL_FACTS = defineStatement<[appointmentIds: readonly string[]], FactsRow>({
  name: 'appointment_email_facts',
  text: `
WITH RECURSIVE chain (subject_id, id, rescheduled_from_id, depth) AS (
  SELECT a.id, a.id, a.rescheduled_from_id, 0 FROM appointments a WHERE a.id = ANY($1::uuid[])
  UNION ALL
  SELECT chain.subject_id, p.id, p.rescheduled_from_id, chain.depth + 1
    FROM appointments p JOIN chain ON p.id = chain.rescheduled_from_id
), origin AS (
  SELECT DISTINCT ON (subject_id) subject_id, id AS origin_id, depth FROM chain ORDER BY subject_id, depth DESC
)
SELECT a.id, a.business_id, a.status, a.starts_at, a.ends_at, a.service_name,
       b.name AS business_name, b.timezone, b.locale, b.notification_email,
       s.name AS staff_name, c.name AS client_name, c.email AS client_email,
       p.starts_at AS previous_starts_at, o.origin_id, o.depth
  FROM appointments a
  JOIN origin o ON o.subject_id = a.id
  JOIN businesses b ON b.id = a.business_id
  JOIN staff s ON s.id = a.staff_id
  JOIN clients c ON c.id = a.client_id
  LEFT JOIN appointments p ON p.id = a.rescheduled_from_id`,
});

@Injectable()
export class AppointmentEmailFactsRepository {
  constructor(private readonly database: Database) {}

  /** By appointment id; an appointment deleted since (its business's sandbox reset) is absent. */
  async load(appointmentIds: readonly string[]): Promise<Map<string, StoredEmailFacts>> {
    if (appointmentIds.length === 0) return new Map();
    const rows = await this.database.rows(EMAIL_FACTS, [appointmentIds]);
    return new Map(
      rows.map((row): [string, StoredEmailFacts] => [
        row.id,
        {
          business: { name: row.business_name, timezone: row.timezone, locale: row.locale, notificationEmail: row.notification_email },
          appointment: {
            id: row.id,
            businessId: row.business_id,
            status: row.status,
            startsAt: row.starts_at,
            endsAt: row.ends_at,
            serviceName: row.service_name,
          },
          staffName: row.staff_name,
          client: { name: row.client_name, email: row.client_email },
          ...(row.previous_starts_at ? { previousStartsAt: row.previous_starts_at } : {}),
          chain: { originId: row.origin_id, depth: Number(row.depth) },
        },
      ]),
    );
  }
}
