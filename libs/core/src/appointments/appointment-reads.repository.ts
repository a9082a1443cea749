import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import { defineStatement, type BoundStatement } from '#database/statement.js';
import { toTimestampLiteral, type EpochMicros } from '../pagination/epoch-micros.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { pageStart, type PageStart } from '../pagination/page-start.js';
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
const APPOINTMENT_COLUMNS = `a.id, a.status, a.starts_at, a.ends_at, a.duration_min, a.service_id, a.service_name,
       a.price_cents, a.currency, a.staff_id, s.name AS staff_name, a.client_id, c.name AS client_name,
       a.source, a.location_id, a.rescheduled_from_id, a.created_at, a.updated_at,
       (extract(epoch FROM a.starts_at) * 1000000)::bigint::text AS position
  FROM appointments a
  JOIN staff s ON s.id = a.staff_id
  JOIN clients c ON c.id = a.client_id`;

const FIND_BY_ID = defineStatement<[businessId: string, id: string], AppointmentRow>({
  name: 'find_appointment',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND a.id = $2`,
});

/** business, start position (time, id), end of the range, take; then the filters the statement has. */
type PageParams = [businessId: string, ...start: PageStart, to: string, take: number];

// One fixed statement per filter combination, each with the bounds of its own index (business_id,
// [status | staff_id,] starts_at, id): a page deep in the list is an index range scan that stops
// after `take` rows, with no OFFSET and no sort, and a generic plan keeps that index (an optional
// filter written `$n IS NULL OR …` would not).
const PAGE = defineStatement<PageParams, AppointmentRow>({
  name: 'appointment_page',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND (a.starts_at, a.id) > ($2::timestamptz, $3::uuid) AND a.starts_at < $4::timestamptz
 ORDER BY a.starts_at, a.id
 LIMIT $5`,
});

const PAGE_BY_STATUS = defineStatement<[...PageParams, status: AppointmentStatus], AppointmentRow>({
  name: 'appointment_page_by_status',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND a.status = $6 AND (a.starts_at, a.id) > ($2::timestamptz, $3::uuid) AND a.starts_at < $4::timestamptz
 ORDER BY a.starts_at, a.id
 LIMIT $5`,
});

const PAGE_BY_STAFF = defineStatement<[...PageParams, staffId: string], AppointmentRow>({
  name: 'appointment_page_by_staff',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND a.staff_id = $6 AND (a.starts_at, a.id) > ($2::timestamptz, $3::uuid) AND a.starts_at < $4::timestamptz
 ORDER BY a.starts_at, a.id
 LIMIT $5`,
});

const PAGE_BY_STAFF_AND_STATUS = defineStatement<[...PageParams, staffId: string, status: AppointmentStatus], AppointmentRow>({
  name: 'appointment_page_by_staff_status',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND a.staff_id = $6 AND a.status = $7
   AND (a.starts_at, a.id) > ($2::timestamptz, $3::uuid) AND a.starts_at < $4::timestamptz
 ORDER BY a.starts_at, a.id
 LIMIT $5`,
});

@Injectable()
export class AppointmentReadsRepository {
  constructor(private readonly database: Database) {}

  /** Appointments after the request's position, in (starts_at, id) order. */
  async listPage(businessId: string, filter: AppointmentFilter, request: PageRequest): Promise<PositionedRow<AppointmentView>[]> {
    const { statement, params } = this.pageStatement(businessId, filter, request);
    const rows = await this.database.rows(statement, params);
    return rows.map((row) => ({ record: toView(row), position: { micros: BigInt(row.position), id: row.id } }));
  }

  /** The statement listPage runs: the one of the filters given. */
  pageStatement(businessId: string, filter: AppointmentFilter, request: PageRequest): BoundStatement<readonly unknown[], AppointmentRow> {
    const params: PageParams = [businessId, ...pageStart(request.after, filter.from), toTimestampLiteral(filter.to), request.take];
    if (filter.staffId !== null && filter.status !== null) {
      return { statement: PAGE_BY_STAFF_AND_STATUS, params: [...params, filter.staffId, filter.status] };
    }
    if (filter.staffId !== null) return { statement: PAGE_BY_STAFF, params: [...params, filter.staffId] };
    if (filter.status !== null) return { statement: PAGE_BY_STATUS, params: [...params, filter.status] };
    return { statement: PAGE, params };
  }

  findById(businessId: string, appointmentId: string): Promise<AppointmentView | null> {
    return this.database.maybeOne(FIND_BY_ID, [businessId, appointmentId]).then((row) => (row ? toView(row) : null));
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
