import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentEntity, AppointmentStatus } from '#database/entities/appointment.entity.js';
import { defineStatement } from '#database/statement.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { DomainError } from '../errors/domain-error.js';
import { generateAppointmentCode } from './appointment-code.js';

/** Draws of a new code after a clash; a second clash in a row is already a one-in-10^12 event. */
const CODE_ATTEMPTS = 5;

// Every booking and reschedule runs it: plain SQL, since building it through TypeORM's query
// builder cost more CPU than PostgreSQL spends running it. ON CONFLICT (business_id, code) DO
// NOTHING: a code clash inserts no row instead of failing, so no savepoint is needed to retry.
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
  ],
  { id: string }
>({
  name: 'insert_appointment',
  // Two transactions inserting overlapping rows for one staff member at the same moment would
  // each find the other's row in the exclusion index and wait for it: a deadlock, which
  // PostgreSQL breaks after a second by failing one of them. The lock on the staff member, taken
  // in the same statement, makes the second wait for the first to end instead, and then meet its
  // row as a plain conflict (SLOT_TAKEN). It is held to the end of the transaction, or of the
  // savepoint of an "any staff" attempt that fails.
  text: `
INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                          duration_min, price_cents, currency, source, location_id, rescheduled_from_id, code,
                          cancellation_reason, cancelled_at, created_at, updated_at)
SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::uuid, $7::text, $8::timestamptz, $9::timestamptz, $10::int, $11::int,
       $12::text, $13::text, $14::uuid, $15::uuid, $16::text, $17::text, $18::timestamptz, $19::timestamptz, $20::timestamptz
  FROM (SELECT pg_advisory_xact_lock(hashtextextended('appointments.staff:' || $3::text, 0))) AS staff_member_serialised
ON CONFLICT (business_id, code) DO NOTHING
RETURNING id`,
});

/**
 * The appointment, locked until the transaction ends, so that concurrent writes to one
 * appointment (two cancels, a cancel and a reschedule) run one after the other and the second
 * sees the first's outcome.
 */
const APPOINTMENT_FOR_UPDATE = defineStatement<[businessId: string, id: string], AppointmentEntity>({
  name: 'appointment_for_update',
  text: `SELECT id, business_id AS "businessId", staff_id AS "staffId", service_id AS "serviceId", service_name AS "serviceName",
       client_id AS "clientId", status, starts_at AS "startsAt", ends_at AS "endsAt", duration_min AS "durationMin",
       price_cents AS "priceCents", currency, source, location_id AS "locationId", rescheduled_from_id AS "rescheduledFromId",
       code, cancellation_reason AS "cancellationReason", cancelled_at AS "cancelledAt", created_at AS "createdAt",
       updated_at AS "updatedAt"
  FROM appointments WHERE business_id = $1 AND id = $2
   FOR UPDATE`,
});

const CHANGE_STATUS = defineStatement<[businessId: string, id: string, status: AppointmentStatus, at: Date]>({
  name: 'change_appointment_status',
  text: 'UPDATE appointments SET status = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
});

const CANCEL = defineStatement<[businessId: string, id: string, reason: string, at: Date]>({
  name: 'cancel_appointment',
  text: `UPDATE appointments SET status = 'CANCELLED', cancellation_reason = $3, cancelled_at = $4, updated_at = $4
 WHERE business_id = $1 AND id = $2`,
});

@Injectable()
export class AppointmentsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Inserts an appointment. The exclusion constraint appointments_no_overlap is what guarantees
   * no double booking under concurrency; its violation is SLOT_TAKEN (and, like any failed
   * statement, leaves the caller's transaction to be rolled back). On a clash of the random code
   * (appointments_code_key) the appointment gets a new code and is inserted again.
   */
  async insert(appointment: AppointmentEntity): Promise<void> {
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
      let inserted: unknown[];
      try {
        inserted = await this.database.rows(INSERT_APPOINTMENT, [
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
        ]);
      } catch (error) {
        if (violatedConstraint(error) === 'appointments_no_overlap') {
          throw new DomainError('SLOT_TAKEN', 'The staff member already has an active appointment that overlaps this interval.');
        }
        throw error;
      }
      if (inserted.length > 0) return;
      appointment.code = generateAppointmentCode();
    }
    throw new Error(`No free appointment code in ${CODE_ATTEMPTS} draws for business ${appointment.businessId}.`);
  }

  findByIdForUpdate(businessId: string, appointmentId: string): Promise<AppointmentEntity | null> {
    return this.database.maybeOne(APPOINTMENT_FOR_UPDATE, [businessId, appointmentId]);
  }

  async changeStatus(businessId: string, appointmentId: string, status: AppointmentStatus, at: Date): Promise<void> {
    await this.database.execute(CHANGE_STATUS, [businessId, appointmentId, status, at]);
  }

  /** Cancels with the reason (stored, never returned). */
  async cancel(businessId: string, appointmentId: string, reason: string, at: Date): Promise<void> {
    await this.database.execute(CANCEL, [businessId, appointmentId, reason, at]);
  }
}
