import { Injectable } from '@nestjs/common';
import { notFound, validationFailed } from '../errors/domain-error.js';
import { CursorCodec, type CursorScope } from '../pagination/cursor-codec.js';
import { paginate, type Page, type PageParams } from '../pagination/page.js';
import { readAppointmentFilter, type AppointmentListFilterInput } from './appointment-list-filter.js';
import { AppointmentReadsRepository } from './appointment-reads.repository.js';
import type { AppointmentView } from './appointment-view.js';

export interface AppointmentListQuery extends AppointmentListFilterInput, PageParams {}

@Injectable()
export class AppointmentReadsService {
  constructor(
    private readonly appointments: AppointmentReadsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of the appointments starting in [from, to), by (start, id); the cursor is bound to every filter. */
  async list(businessId: string, query: AppointmentListQuery): Promise<Page<AppointmentView>> {
    const check = readAppointmentFilter(query);
    if (!check.ok) throw validationFailed(check.errors);
    const { filter } = check;
    const scope: CursorScope = {
      list: 'appointments',
      businessId,
      filters: { from: String(filter.from), to: String(filter.to), status: filter.status, staffId: filter.staffId },
    };
    return paginate(this.cursors, scope, query, (request) => this.appointments.listPage(businessId, filter, request));
  }

  async get(businessId: string, appointmentId: string): Promise<AppointmentView> {
    const appointment = await this.appointments.findById(businessId, appointmentId);
    if (!appointment) throw notFound('The appointment');
    return appointment;
  }
}
