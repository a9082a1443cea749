import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppointmentEntity } from '#database/entities/appointment.entity.js';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { DomainError } from '../errors/domain-error.js';
import { generateAppointmentCode } from './appointment-code.js';

/** What a status change writes besides the status. */
export type AppointmentChanges = Pick<AppointmentEntity, 'status' | 'updatedAt'> &
  Partial<Pick<AppointmentEntity, 'cancellationReason' | 'cancelledAt'>>;

/** Where an appointment sits in its chain of reschedules. */
export interface RescheduleChain {
  /** The first appointment of the chain (itself when never rescheduled). */
  originId: string;
  /** How many reschedules led to this appointment. */
  depth: number;
}

/** Draws of a new code after a clash; a second clash in a row is already a one-in-10^12 event. */
const CODE_ATTEMPTS = 5;

// Every booking and reschedule runs it: plain SQL, since building it through TypeORM's query
// builder cost more CPU than PostgreSQL spends running it. ON CONFLICT (business_id, code) DO
// NOTHING: a code clash inserts no row instead of failing, so no savepoint is needed to retry.
const INSERT_APPOINTMENT = {
  name: 'insert_appointment',
  text: `
INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                          duration_min, price_cents, currency, source, location_id, rescheduled_from_id, code,
                          cancellation_reason, cancelled_at, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
ON CONFLICT (business_id, code) DO NOTHING
RETURNING id`,
};

@Injectable()
export class AppointmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts an appointment. The exclusion constraint appointments_no_overlap is what guarantees
   * no double booking under concurrency; its violation is SLOT_TAKEN (and, like any failed
   * statement, leaves the caller's transaction to be rolled back). On a clash of the random code
   * (appointments_code_key) the appointment gets a new code and is inserted again.
   */
  async insert(appointment: AppointmentEntity, manager?: EntityManager): Promise<void> {
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
      let inserted: unknown[];
      try {
        inserted = await preparedQuery(managerFor(this.dataSource, manager), INSERT_APPOINTMENT, [
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
          throw new DomainError(
            'SLOT_TAKEN',
            'The staff member already has an active appointment that overlaps this interval.',
          );
        }
        throw error;
      }
      if (inserted.length > 0) return;
      appointment.code = generateAppointmentCode();
    }
    throw new Error(`No free appointment code in ${CODE_ATTEMPTS} draws for business ${appointment.businessId}.`);
  }

  // The methods below join the ambient transaction (managerFor): the writes of one request run on
  // its one connection, never on a second one from the pool.

  /**
   * The appointment, locked until the transaction ends, so that concurrent writes to one
   * appointment (two cancels, a cancel and a reschedule) run one after the other and the second
   * sees the first's outcome.
   */
  findByIdForUpdate(businessId: string, appointmentId: string, manager?: EntityManager): Promise<AppointmentEntity | null> {
    return managerFor(this.dataSource, manager)
      .getRepository(AppointmentEntity)
      .findOne({ where: { businessId, id: appointmentId }, lock: { mode: 'pessimistic_write' } });
  }

  async update(businessId: string, appointmentId: string, changes: AppointmentChanges, manager?: EntityManager): Promise<void> {
    await managerFor(this.dataSource, manager).getRepository(AppointmentEntity).update({ businessId, id: appointmentId }, changes);
  }

  /** Follows rescheduledFromId back to the first appointment of the chain. */
  async rescheduleChain(businessId: string, appointmentId: string, manager?: EntityManager): Promise<RescheduleChain> {
    const rows: { id: string; depth: number }[] = await managerFor(this.dataSource, manager).query(
      `WITH RECURSIVE chain (id, rescheduled_from_id, depth) AS (
         SELECT id, rescheduled_from_id, 0 FROM appointments WHERE business_id = $1 AND id = $2
         UNION ALL
         SELECT a.id, a.rescheduled_from_id, chain.depth + 1
           FROM appointments a JOIN chain ON a.id = chain.rescheduled_from_id
          WHERE a.business_id = $1
       )
       SELECT id, depth FROM chain ORDER BY depth DESC LIMIT 1`,
      [businessId, appointmentId],
    );
    if (rows.length === 0) throw new Error(`Appointment ${appointmentId} does not exist.`);
    return { originId: rows[0].id, depth: Number(rows[0].depth) };
  }
}
