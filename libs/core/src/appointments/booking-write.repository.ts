import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import { defineStatement } from '#database/statement.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { clientExists } from '../clients/client-exists.js';
import { NoticesRepository } from '../notices/notices.repository.js';
import type { NoticeRow } from '../notices/notice-row.js';
import { generateAppointmentCode } from './appointment-code.js';

/** What one booking writes: its appointment, its notices, and the client it creates (form B). */
export interface BookingWrite {
  appointment: AppointmentEntity;
  /** Written only if the appointment is: appointment.created, with the facts of its e-mails. */
  appointmentNotices: NoticeRow[];
  /** Form B: the new client and its client.created notice; null when the client exists. */
  newClient: { client: ClientEntity; notice: NoticeRow } | null;
}

/** Draws of a new code after a clash; a second clash in a row is already a one-in-10^12 event. */
const CODE_ATTEMPTS = 5;

/**
 * The whole of a booking's write, one round trip (docs/design-record.md#write-path): the new client (form B) with its
 * notice, then the appointment, then its notice, which the worker also writes the e-mails from.
 *
 * ON CONFLICT DO NOTHING without a target takes every unique and exclusion constraint as an
 * arbiter: a slot taken meanwhile (appointments_no_overlap) or a clash of the random code inserts
 * no appointment, and no notice of it, instead of failing the statement. So the transaction stays
 * usable and "any staff" tries the next member without a savepoint. The appointment reads
 * new_client so that the client is inserted first: its clash (CLIENT_EXISTS) fails the statement
 * before any slot is looked at, as it did when they were two statements. The advisory lock on the
 * staff member is why two overlapping inserts never deadlock in the exclusion index (see
 * AppointmentsRepository's INSERT_APPOINTMENT).
 */
const BOOK = defineStatement<
  [
    id: string,
    businessId: string,
    staffId: string,
    serviceId: string | null,
    serviceName: string,
    clientId: string,
    status: string,
    startsAt: Date,
    endsAt: Date,
    durationMin: number,
    priceCents: number,
    currency: string,
    source: string,
    code: string,
    createdAt: Date,
    newClient: string | null,
    notices: string,
  ],
  { booked: boolean }
>({
  name: 'book_appointment',
  text: `
WITH new_client AS (
  INSERT INTO clients (id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at,
                       notes, created_at, updated_at)
  SELECT id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at, notes,
         created_at, updated_at
    FROM jsonb_populate_record(NULL::clients, $16::jsonb)
   WHERE $16::jsonb IS NOT NULL
  RETURNING id
), appointment AS (
  INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                            duration_min, price_cents, currency, source, code, created_at, updated_at)
  SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::uuid, $7::text, $8::timestamptz, $9::timestamptz, $10::int,
         $11::int, $12::text, $13::text, $14::text, $15::timestamptz, $15::timestamptz
    FROM (SELECT pg_advisory_xact_lock(hashtextextended('appointments.staff:' || $3::text, 0))) AS staff_member_serialised,
         (SELECT count(*) FROM new_client) AS client_inserted_first
  ON CONFLICT DO NOTHING
  RETURNING id
), notice AS (
  INSERT INTO notices (id, business_id, type, payload, emails)
  SELECT n.id, n.business_id, n.type, n.payload, n.emails
    FROM jsonb_array_elements($17::jsonb) AS e, jsonb_populate_record(NULL::notices, e) AS n
   WHERE CASE e->>'after' WHEN 'client' THEN EXISTS (SELECT FROM new_client) ELSE EXISTS (SELECT FROM appointment) END
)
SELECT EXISTS (SELECT FROM appointment) AS booked`,
});

// Asked only when a booking inserted nothing: a code clash (draw again) or the slot taken.
const CODE_TAKEN = defineStatement<[businessId: string, code: string], { taken: boolean }>({
  name: 'appointment_code_taken',
  text: 'SELECT EXISTS (SELECT FROM appointments WHERE business_id = $1 AND code = $2) AS taken',
});

@Injectable()
export class BookingWriteRepository {
  constructor(
    private readonly database: Database,
    private readonly notices: NoticesRepository,
  ) {}

  /**
   * Writes the booking; false when the slot was taken meanwhile (nothing of the appointment is
   * written; the new client is, and the caller leaves it out of its next attempt or rolls back).
   * CLIENT_EXISTS when form B's client clashes with an existing one.
   */
  async write(booking: BookingWrite): Promise<boolean> {
    const { appointment } = booking;
    let newClient = booking.newClient;
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
      const notices = [
        ...(newClient ? [{ ...newClient.notice, after: 'client' }] : []),
        ...booking.appointmentNotices.map((notice) => ({ ...notice, after: 'appointment' })),
      ];
      let booked: boolean;
      try {
        ({ booked } = await this.database.one(BOOK, [
          appointment.id,
          appointment.businessId,
          appointment.staffId,
          appointment.serviceId,
          appointment.serviceName,
          appointment.clientId,
          appointment.status,
          appointment.startsAt,
          appointment.endsAt,
          appointment.durationMin,
          appointment.priceCents,
          appointment.currency,
          appointment.source,
          appointment.code,
          appointment.createdAt,
          newClient && JSON.stringify(clientColumns(newClient.client)),
          JSON.stringify(notices),
        ]));
      } catch (error) {
        throw clientExists(violatedConstraint(error), newClient?.client) ?? error;
      }
      if (newClient) this.notices.wakeRelayAfterCommit();
      newClient = null;
      if (booked) {
        this.notices.wakeRelayAfterCommit();
        return true;
      }
      const { taken } = await this.database.one(CODE_TAKEN, [appointment.businessId, appointment.code]);
      if (!taken) return false;
      appointment.code = generateAppointmentCode();
    }
    throw new Error(`No free appointment code in ${CODE_ATTEMPTS} draws for business ${appointment.businessId}.`);
  }
}

/** The client as a row of the clients table, for jsonb_populate_record. */
function clientColumns(client: ClientEntity): Record<string, unknown> {
  return {
    id: client.id,
    business_id: client.businessId,
    name: client.name,
    phone: client.phone,
    email: client.email,
    birth_date: client.birthDate,
    guardian_name: client.guardianName,
    guardian_email: client.guardianEmail,
    consent: client.consent,
    consent_at: client.consentAt,
    notes: client.notes,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
  };
}
