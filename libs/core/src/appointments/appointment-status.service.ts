import { Injectable } from '@nestjs/common';
import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import { Database } from '#database/database.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import { buildNoticeBody } from '../notices/outbox/notice-body.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import { DASHBOARD_TRANSITIONS, statusAfter, type DashboardTransition } from './appointment-transitions.js';
import { AppointmentsRepository } from './appointments.repository.js';

/**
 * The dashboard's status changes (docs/design-record.md#d6): confirm a PENDING appointment (which emits
 * appointment.confirmed, docs/design-record.md#d9), complete it or mark it as a no-show. Not part of the API; the
 * admin command line drives it.
 */
@Injectable()
export class AppointmentStatusService {
  constructor(
    private readonly database: Database,
    private readonly businesses: BusinessesService,
    private readonly appointments: AppointmentsRepository,
    private readonly notices: NoticesRepository,
  ) {}

  async apply(businessSlug: string, appointmentId: string, transition: DashboardTransition): Promise<AppointmentEntity> {
    const business = await this.businesses.getBySlug(businessSlug);
    return this.database.transactional(async () => {
      const appointment = await this.appointments.findByIdForUpdate(business.id, appointmentId);
      if (!appointment) throw notFound('The appointment');
      const status = statusAfter(transition, appointment.status);
      if (!status) {
        const allowed = DASHBOARD_TRANSITIONS[transition].from.join(' or ');
        throw new DomainError(
          'APPOINTMENT_NOT_ACTIVE',
          `Cannot ${transition} an appointment that is ${appointment.status}; only one that is ${allowed}.`,
        );
      }
      const now = new Date();
      const updatedAt = await this.appointments.changeStatus(business.id, appointment.id, status);
      if (transition === 'confirm') {
        await this.notices.record(
          business.id,
          buildNoticeBody({ type: 'appointment.confirmed', businessSlug: business.slug, subjectId: appointment.id, occurredAt: now }),
        );
      }
      return Object.assign(appointment, { status, updatedAt });
    });
  }
}
