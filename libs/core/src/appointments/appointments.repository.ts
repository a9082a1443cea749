import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentEntity, AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import { defineStatement } from '#database/statement.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { clientExists } from '../clients/client-exists.js';
import { clientClashError } from '../clients/clients.repository.js';
import { DomainError } from '../errors/domain-error.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import type { NoticeRow } from '../notices/outbox/notice-row.js';
import { generateAppointmentCode } from './appointment-code.js';

/** What one insert writes: the appointment, its notices, and the client it creates (a booking's form B). */
export interface AppointmentInsert {
  appointment: AppointmentEntity;
  /** Written only if the appointment is (appointment.created or .rescheduled, with the facts of its e-mails). */
  appointmentNotices: NoticeRow[];
  /** The new client and its client.created notice, inserted first; null when the client exists. */
  newClient: { client: ClientEntity; notice: NoticeRow } | null;
}

/** An insert the exclusion constraint kept out: the member is booked at that time. */
export const slotTaken = (): DomainError =>
  new DomainError('SLOT_TAKEN', 'The staff member already has an active appointment that overlaps this interval.');

/** Draws of a new code after a clash; a second clash in a row is already a one-in-10^12 event. */
const CODE_ATTEMPTS = 5;

/**
 * Every appointment insert (a booking, a reschedule, a fixture), one round trip with what goes
 * with it (docs/design-record.md#write-path): the new client (form B) with its notice, then the appointment, then
 * its notices, which the worker also writes the e-mails from. Plain SQL: building it through
 * TypeORM's query builder cost more CPU than PostgreSQL spends running it.
 *
 * ON CONFLICT DO NOTHING without a target takes every unique and exclusion constraint as an
 * arbiter: a slot taken meanwhile (appointments_no_overlap) or a clash of the random code inserts
 * no appointment, and no notice of it, instead of failing the statement. So the transaction stays
 * usable and "any staff" tries the next member without a savepoint. The appointment reads
 * new_client so that the client is inserted first: when it clashes with an existing client (the
 * same phone or e-mail) nothing is inserted, and the caller names that client in its CLIENT_EXISTS.
 *
 * Two transactions inserting overlapping rows for one staff member at the same moment would each
 * find the other's row in the exclusion index and wait for it: a deadlock. They cannot: the first
 * row a transaction inserts takes a stamp from the business's change clock before it reaches an
 * index, and the transaction holds the clock to its end (docs/design-record.md#d27), so the second
 * waits for the first to end and then meets its row as a plain conflict. The rows' created_at and
 * updated_at are that stamp, returned here.
 */
const INSERT_APPOINTMENT = defineStatement<
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
    locationId: string | null,
    rescheduledFromId: string | null,
    code: string,
    cancellationReason: string | null,
    cancelledAt: Date | null,
    createdAt: Date,
    updatedAt: Date,
    newClient: string | null,
    notices: string,
    metadata: string,
  ],
  { inserted: boolean; clientClashed: boolean; stampedAt: Date | null; clientStampedAt: Date | null }
>({
  name: 'insert_appointment',
  text: `
WITH new_client AS (
  INSERT INTO clients (id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at,
                       notes, metadata, created_at, updated_at)
  SELECT id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at, notes,
         metadata, created_at, updated_at
    FROM jsonb_populate_record(NULL::clients, $21::jsonb)
   WHERE $21::jsonb IS NOT NULL
  ON CONFLICT DO NOTHING
  RETURNING id, updated_at
), appointment AS (
  INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                            duration_min, price_cents, currency, source, location_id, rescheduled_from_id, code,
                            cancellation_reason, cancelled_at, created_at, updated_at, metadata)
  SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::uuid, $7::text, $8::timestamptz, $9::timestamptz, $10::int,
         $11::int, $12::text, $13::text, $14::uuid, $15::uuid, $16::text, $17::text, $18::timestamptz, $19::timestamptz,
         $20::timestamptz, $23::jsonb
    FROM (SELECT count(*) FROM new_client) AS client_inserted_first
   WHERE $21::jsonb IS NULL OR client_inserted_first.count > 0
  ON CONFLICT DO NOTHING
  RETURNING id, updated_at
), notice AS (
  INSERT INTO notices (id, business_id, type, payload, emails)
  SELECT n.id, n.business_id, n.type, n.payload, n.emails
    FROM jsonb_array_elements($22::jsonb) AS e, jsonb_populate_record(NULL::notices, e) AS n
   WHERE CASE e->>'after' WHEN 'client' THEN EXISTS (SELECT FROM new_client) ELSE EXISTS (SELECT FROM appointment) END
)
SELECT EXISTS (SELECT FROM appointment) AS inserted,
       $21::jsonb IS NOT NULL AND NOT EXISTS (SELECT FROM new_client) AS "clientClashed",
       (SELECT updated_at FROM appointment) AS "stampedAt", (SELECT updated_at FROM new_client) AS "clientStampedAt"`,
});

// Asked only when an insert wrote no appointment: a code clash (draw again) or the slot taken.
export const CODE_TAKEN = defineStatement<[businessId: string, code: string], { taken: boolean }>({
  name: 'appointment_code_taken',
  text: 'SELECT EXISTS (SELECT FROM appointments WHERE business_id = $1 AND code = $2) AS taken',
});

/**
 * The appointment, locked until the transaction ends, so that concurrent writes to one
 * appointment (two cancels, a cancel and a reschedule) run one after the other and the second
 * sees the first's outcome. FOR NO KEY UPDATE, the lock an UPDATE itself takes, not FOR UPDATE:
 * the latter would also stop the foreign-key checks of rows that name the appointment (a
 * payment, a sale), and such a row's write holds the business's change clock while it checks,
 * which this transaction waits for next: a deadlock (docs/design-record.md#d27).
 */
const APPOINTMENT_FOR_UPDATE = defineStatement<[businessId: string, id: string], AppointmentEntity>({
  name: 'appointment_for_update',
  text: `SELECT id, business_id AS "businessId", staff_id AS "staffId", service_id AS "serviceId", service_name AS "serviceName",
       client_id AS "clientId", status, starts_at AS "startsAt", ends_at AS "endsAt", duration_min AS "durationMin",
       price_cents AS "priceCents", currency, source, location_id AS "locationId", rescheduled_from_id AS "rescheduledFromId",
       code, cancellation_reason AS "cancellationReason", cancelled_at AS "cancelledAt", created_at AS "createdAt",
       updated_at AS "updatedAt", metadata
  FROM appointments WHERE business_id = $1 AND id = $2
   FOR NO KEY UPDATE`,
});

// updated_at is the change clock's stamp (docs/design-record.md#d27), set by the table's trigger.
const CHANGE_STATUS = defineStatement<[businessId: string, id: string, status: AppointmentStatus], { updatedAt: Date }>({
  name: 'change_appointment_status',
  text: 'UPDATE appointments SET status = $3 WHERE business_id = $1 AND id = $2 RETURNING updated_at AS "updatedAt"',
});

const SET_METADATA = defineStatement<[businessId: string, id: string, metadata: string], { id: string }>({
  name: 'set_appointment_metadata',
  text: 'UPDATE appointments SET metadata = $3::jsonb WHERE business_id = $1 AND id = $2 RETURNING id',
});

const CANCEL = defineStatement<[businessId: string, id: string, reason: string, at: Date], { updatedAt: Date }>({
  name: 'cancel_appointment',
  text: `UPDATE appointments SET status = 'CANCELLED', cancellation_reason = $3, cancelled_at = $4
 WHERE business_id = $1 AND id = $2
 RETURNING updated_at AS "updatedAt"`,
});

@Injectable()
export class AppointmentsRepository {
  constructor(
    private readonly database: Database,
    private readonly notices: NoticesRepository,
  ) {}

  /**
   * Inserts an appointment; SLOT_TAKEN when the exclusion constraint appointments_no_overlap (what
   * guarantees no double booking under concurrency) keeps it out.
   */
  async insert(appointment: AppointmentEntity): Promise<void> {
    if (!(await this.insertWith({ appointment, appointmentNotices: [], newClient: null }))) {
      throw slotTaken();
    }
  }

  /**
   * Inserts an appointment with its notices and, first, the client it creates (INSERT_APPOINTMENT);
   * false when the slot was taken meanwhile (nothing of the appointment is written; the new client
   * is, and the caller leaves it out of its next attempt or rolls back). CLIENT_EXISTS when the new
   * client clashes with an existing one. On a clash of the random code the appointment gets a new
   * code and is inserted again.
   */
  async insertWith(write: AppointmentInsert): Promise<boolean> {
    const { appointment } = write;
    let newClient = write.newClient;
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
      const notices = [
        ...(newClient ? [{ ...newClient.notice, after: 'client' }] : []),
        ...write.appointmentNotices.map((notice) => ({ ...notice, after: 'appointment' })),
      ];
      let inserted: boolean;
      let clientClashed: boolean;
      let stampedAt: Date | null;
      let clientStampedAt: Date | null;
      try {
        ({ inserted, clientClashed, stampedAt, clientStampedAt } = await this.database.one(INSERT_APPOINTMENT, [
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
          appointment.locationId,
          appointment.rescheduledFromId,
          appointment.code,
          appointment.cancellationReason,
          appointment.cancelledAt,
          appointment.createdAt,
          appointment.updatedAt,
          newClient && JSON.stringify(clientColumns(newClient.client)),
          JSON.stringify(notices),
          JSON.stringify(appointment.metadata),
        ]));
      } catch (error) {
        throw clientExists(violatedConstraint(error), newClient?.client) ?? error;
      }
      // The new client met an existing one: nothing was written, and the refusal names it (docs/design-record.md#d23).
      if (clientClashed && newClient) throw await clientClashError(this.database, newClient.client);
      if (newClient) {
        stamp(newClient.client, clientStampedAt);
        this.notices.wakeRelayAfterCommit();
      }
      newClient = null;
      if (inserted) {
        stamp(appointment, stampedAt);
        if (notices.length > 0) this.notices.wakeRelayAfterCommit();
        return true;
      }
      const { taken } = await this.database.one(CODE_TAKEN, [appointment.businessId, appointment.code]);
      if (!taken) return false;
      appointment.code = generateAppointmentCode();
    }
    throw new Error(`No free appointment code in ${CODE_ATTEMPTS} draws for business ${appointment.businessId}.`);
  }

  findByIdForUpdate(businessId: string, appointmentId: string): Promise<AppointmentEntity | null> {
    return this.database.maybeOne(APPOINTMENT_FOR_UPDATE, [businessId, appointmentId]);
  }

  /** The new status; answers the change's stamp (docs/design-record.md#d27). */
  async changeStatus(businessId: string, appointmentId: string, status: AppointmentStatus): Promise<Date> {
    return (await this.database.one(CHANGE_STATUS, [businessId, appointmentId, status])).updatedAt;
  }

  /** Replaces the appointment's metadata (docs/design-record.md#d23); false when it is not in the business. */
  async setMetadata(businessId: string, appointmentId: string, metadata: Record<string, string>): Promise<boolean> {
    return (await this.database.maybeOne(SET_METADATA, [businessId, appointmentId, JSON.stringify(metadata)])) !== null;
  }

  /** Cancels with the reason (stored, never returned); answers the change's stamp (docs/design-record.md#d27). */
  async cancel(businessId: string, appointmentId: string, reason: string, at: Date): Promise<Date> {
    return (await this.database.one(CANCEL, [businessId, appointmentId, reason, at])).updatedAt;
  }
}

/** A row as inserted: created and updated at its change stamp (docs/design-record.md#d27). */
function stamp(row: { createdAt: Date; updatedAt: Date }, stampedAt: Date | null): void {
  if (stampedAt === null) throw new Error('An inserted row came back without its change stamp.');
  row.createdAt = stampedAt;
  row.updatedAt = stampedAt;
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
    metadata: client.metadata,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
  };
}
