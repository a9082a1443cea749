import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppointmentEntity } from '#database/entities/appointment.entity.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { DomainError } from '../errors/domain-error.js';
import { generateAppointmentCode } from './appointment-code.js';

/** Draws of a new code after a clash; a second clash in a row is already a one-in-10^12 event. */
const CODE_ATTEMPTS = 5;

@Injectable()
export class AppointmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts an appointment. The exclusion constraint appointments_no_overlap is what guarantees
   * no double booking under concurrency; its violation is SLOT_TAKEN. On a clash of the random
   * code (appointments_code_key) the appointment gets a new code and is inserted again.
   */
  async insert(appointment: AppointmentEntity, manager?: EntityManager): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        // A savepoint of its own, so that a clash does not abort the caller's transaction.
        await (manager ?? this.dataSource.manager).transaction((inner) =>
          inner.getRepository(AppointmentEntity).insert(appointment),
        );
        return;
      } catch (error) {
        const constraint = violatedConstraint(error);
        if (constraint === 'appointments_code_key' && attempt < CODE_ATTEMPTS) {
          appointment.code = generateAppointmentCode();
          continue;
        }
        if (constraint === 'appointments_no_overlap') {
          throw new DomainError(
            'SLOT_TAKEN',
            'The staff member already has an active appointment that overlaps this interval.',
          );
        }
        throw error;
      }
    }
  }
}
