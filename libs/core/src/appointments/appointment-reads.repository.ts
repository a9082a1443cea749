import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import { keysetAfter, positionOf, SqlParams, type SqlQuery } from '../pagination/keyset-sql.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import type { AppointmentView } from './appointment-view.js';

/** The filters of GET /appointments: `from <= starts_at < to`, and optionally one status and one staff member. */
export interface AppointmentFilter {
  from: EpochMicros;
  to: EpochMicros;
  status: AppointmentStatus | null;
  staffId: string | null;
}

interface AppointmentRow {
  id: string;
  status: AppointmentStatus;
  starts_at: Date;
  ends_at: Date;
  duration_min: number;
  service_id: string | null;
  service_name: string;
  price_cents: number;
  currency: string;
  staff_id: string;
  staff_name: string;
  client_id: string;
  client_name: string;
  source: string;
  location_id: string | null;
  rescheduled_from_id: string | null;
  created_at: Date;
  updated_at: Date;
  position: string;
}

// Every returned column by name: the code and the cancellation reason are never selected.
const SELECT_APPOINTMENTS = `
SELECT a.id, a.status, a.starts_at, a.ends_at, a.duration_min, a.service_id, a.service_name,
       a.price_cents, a.currency, a.staff_id, s.name AS staff_name, a.client_id, c.name AS client_name,
       a.source, a.location_id, a.rescheduled_from_id, a.created_at, a.updated_at,
       ${positionOf('a.starts_at')} AS position
  FROM appointments a
  JOIN staff s ON s.id = a.staff_id
  JOIN clients c ON c.id = a.client_id`;

const FIND_BY_ID = { name: 'find_appointment', text: `${SELECT_APPOINTMENTS}\n WHERE a.business_id = $1 AND a.id = $2` };

@Injectable()
export class AppointmentReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appointments after the request's position, in (starts_at, id) order. */
  async listPage(
    businessId: string,
    filter: AppointmentFilter,
    request: PageRequest,
    manager?: EntityManager,
  ): Promise<PositionedRow<AppointmentView>[]> {
    const { sql, params } = this.pageQuery(businessId, filter, request);
    const rows: AppointmentRow[] = await managerFor(this.dataSource, manager).query(sql, params);
    return rows.map((row) => ({ record: toView(row), position: { micros: BigInt(row.position), id: row.id } }));
  }

  /**
   * The SQL listPage runs. Every condition is a bound of one of the (business_id, [status |
   * staff_id,] starts_at, id) indexes, so a page deep in the list is an index range scan that
   * stops after `take` rows: no OFFSET, no sort.
   */
  pageQuery(businessId: string, filter: AppointmentFilter, request: PageRequest): SqlQuery {
    const params = new SqlParams();
    const where = [
      `a.business_id = ${params.add(businessId)}`,
      `a.starts_at >= ${params.addTimestamp(filter.from)}`,
      `a.starts_at < ${params.addTimestamp(filter.to)}`,
    ];
    if (filter.status !== null) where.push(`a.status = ${params.add(filter.status)}`);
    if (filter.staffId !== null) where.push(`a.staff_id = ${params.add(filter.staffId)}`);
    if (request.after) where.push(keysetAfter('a.starts_at', 'a.id', request.after, params));
    const sql = `${SELECT_APPOINTMENTS}
 WHERE ${where.join('\n   AND ')}
 ORDER BY a.starts_at, a.id
 LIMIT ${params.add(request.take)}`;
    return { sql, params: params.values };
  }

  async findById(businessId: string, appointmentId: string, manager?: EntityManager): Promise<AppointmentView | null> {
    const rows = await preparedQuery<AppointmentRow>(managerFor(this.dataSource, manager), FIND_BY_ID, [businessId, appointmentId]);
    return rows.length > 0 ? toView(rows[0]) : null;
  }
}

function toView(row: AppointmentRow): AppointmentView {
  return {
    id: row.id,
    status: row.status,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    durationMin: row.duration_min,
    service: { id: row.service_id, name: row.service_name },
    priceCents: row.price_cents,
    currency: row.currency,
    staff: { id: row.staff_id, name: row.staff_name },
    client: { id: row.client_id, name: row.client_name },
    source: row.source,
    locationId: row.location_id,
    rescheduledFromId: row.rescheduled_from_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
