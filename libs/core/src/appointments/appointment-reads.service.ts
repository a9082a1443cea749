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

  /**
   * One page of the appointments starting in [from, to) by (start, id), or since 1.4.0 updated
   * since `updatedSince` by (update, id) (docs/design-record.md#d23); the cursor is bound to every
   * filter and to the order.
   */
  async list(businessId: string, query: AppointmentListQuery): Promise<Page<AppointmentView>> {
    const check = readAppointmentFilter(query);
    if (!check.ok) throw validationFailed(check.errors);
    const { filter } = check;
    const text = (micros: bigint | null): string | null => (micros === null ? null : String(micros));
    // The start order's scope is the one of 1.3.0, so its cursors stay valid; clientId joins it only when given.
    const filters: Record<string, string | null> =
      filter.order === 'start'
        ? { from: text(filter.from), to: text(filter.to), status: filter.status, staffId: filter.staffId }
        : {
            order: 'update',
            updatedSince: text(filter.updatedSince),
            from: text(filter.from),
            to: text(filter.to),
            status: filter.status,
            staffId: filter.staffId,
          };
    if (filter.clientId !== null || filter.order === 'update') filters.clientId = filter.clientId;
    const scope: CursorScope = { list: 'appointments', businessId, filters };
    return paginate(this.cursors, scope, query, (request) => this.appointments.listPage(businessId, filter, request));
  }

  async get(businessId: string, appointmentId: string): Promise<AppointmentView> {
    const appointment = await this.appointments.findById(businessId, appointmentId);
    if (!appointment) throw notFound('The appointment');
    return appointment;
  }
}
