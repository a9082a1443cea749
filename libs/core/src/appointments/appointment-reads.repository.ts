import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import { defineStatement, type BoundStatement, type Statement } from '#database/statement.js';
import { toTimestampLiteral, type EpochMicros } from '../pagination/epoch-micros.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { pageStart } from '../pagination/page-start.js';
import type { AppointmentView } from './appointment-view.js';

/**
 * The filters of GET /appointments: by start, `from <= starts_at < to` (both given); by update
 * (1.4.0), `updated_at >= updatedSince` and optionally `from`/`to` on the start; and optionally
 * one status, one staff member and one client.
 */
export interface AppointmentFilter {
  order: 'start' | 'update';
  from: EpochMicros | null;
  to: EpochMicros | null;
  updatedSince: EpochMicros | null;
  status: AppointmentStatus | null;
  staffId: string | null;
  clientId: string | null;
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
  rescheduled_to_id: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  position: string;
  update_position: string;
}

// Every returned column by name: the code and the cancellation reason are never selected.
// rescheduled_to_id is derived, not stored (docs/design-record.md#d23): the appointment that names
// this one as its previous one, whoever wrote it (a reschedule, the dashboard, a fixture); one probe
// of appointments_rescheduled_from_idx per row, with no sort. A reschedule replaces an appointment
// once (it leaves the active statuses under a row lock), so there is at most one; LIMIT 1 keeps a
// hand-written second one from failing the whole page.
const APPOINTMENT_COLUMNS = `a.id, a.status, a.starts_at, a.ends_at, a.duration_min, a.service_id, a.service_name,
       a.price_cents, a.currency, a.staff_id, s.name AS staff_name, a.client_id, c.name AS client_name,
       a.source, a.location_id, a.rescheduled_from_id,
       (SELECT n.id FROM appointments n
         WHERE n.rescheduled_from_id = a.id AND n.business_id = a.business_id LIMIT 1) AS rescheduled_to_id,
       a.metadata, a.created_at, a.updated_at,
       (extract(epoch FROM a.starts_at) * 1000000)::bigint::text AS position,
       (extract(epoch FROM a.updated_at) * 1000000)::bigint::text AS update_position
  FROM appointments a
  JOIN staff s ON s.id = a.staff_id
  JOIN clients c ON c.id = a.client_id`;

export const FIND_BY_ID = defineStatement<[businessId: string, id: string], AppointmentRow>({
  name: 'find_appointment',
  text: `SELECT ${APPOINTMENT_COLUMNS}
 WHERE a.business_id = $1 AND a.id = $2`,
});

/** The order of a page: by start over [from, to), or by update from `updatedSince` (1.4.0, docs/design-record.md#d23). */
type PageOrder = 'start' | 'update';

/** Which optional filters a page statement has, in the order of their parameters. */
interface PageShape {
  order: PageOrder;
  /** Update order only: `from`/`to` bound the start (the start order always has its range). */
  ranged: boolean;
  staff: boolean;
  status: boolean;
  client: boolean;
}

// One fixed statement per order and filter combination, each with the bounds of its own index
// (business_id, [status | staff_id | client_id,] starts_at | updated_at, id): a page deep in the
// list is an index range scan that stops after `take` rows, with no OFFSET and no sort, and a
// generic plan keeps that index (an optional filter written `$n IS NULL OR …` would not). The
// update order has indexes for itself and for one client; its staff and status filters are
// applied to the rows of the (business_id, updated_at, id) index.
//
// Parameters: business, start position (time, id), then by start the end of the range, by update
// (when ranged) the start and end of the range; take; then staff, status, client as the shape has them.
function pageText(shape: PageShape): string {
  const time = shape.order === 'start' ? 'a.starts_at' : 'a.updated_at';
  const conditions = ['a.business_id = $1', `(${time}, a.id) > ($2::timestamptz, $3::uuid)`];
  if (shape.order === 'start') conditions.push('a.starts_at < $4::timestamptz');
  else if (shape.ranged) conditions.push('a.starts_at >= $4::timestamptz', 'a.starts_at < $5::timestamptz');
  // Parameters so far: $1 (business), $2 and $3 (the position, one condition), one per range condition; take is next.
  const take = conditions.length + 2;
  const filters = [shape.staff && 'a.staff_id', shape.status && 'a.status', shape.client && 'a.client_id'].filter(
    (column) => column !== false,
  );
  filters.forEach((column, i) => conditions.push(`${column} = $${take + 1 + i}`));
  return `SELECT ${APPOINTMENT_COLUMNS}
 WHERE ${conditions.join(' AND ')}
 ORDER BY ${time}, a.id
 LIMIT $${take}`;
}

function pageName(shape: PageShape): string {
  const parts = [`appt_page_${shape.order === 'start' ? 's' : 'u'}${shape.ranged ? 'r' : ''}`];
  if (shape.staff) parts.push('staff');
  if (shape.status) parts.push('status');
  if (shape.client) parts.push('client');
  return parts.join('_');
}

const PAGES = new Map<string, Statement<readonly unknown[], AppointmentRow>>();
for (const order of ['start', 'update'] as const) {
  for (const ranged of order === 'start' ? [false] : [false, true]) {
    for (let bits = 0; bits < 8; bits++) {
      const shape: PageShape = { order, ranged, staff: (bits & 1) !== 0, status: (bits & 2) !== 0, client: (bits & 4) !== 0 };
      PAGES.set(pageName(shape), defineStatement<readonly unknown[], AppointmentRow>({ name: pageName(shape), text: pageText(shape) }));
    }
  }
}

@Injectable()
export class AppointmentReadsRepository {
  constructor(private readonly database: Database) {}

  /** Appointments after the request's position, in (starts_at, id) or (updated_at, id) order as the filter says. */
  async listPage(businessId: string, filter: AppointmentFilter, request: PageRequest): Promise<PositionedRow<AppointmentView>[]> {
    const { statement, params } = this.pageStatement(businessId, filter, request);
    const rows = await this.database.rows(statement, params);
    const position = filter.order === 'start' ? (row: AppointmentRow) => row.position : (row: AppointmentRow) => row.update_position;
    return rows.map((row) => ({ record: toView(row), position: { micros: BigInt(position(row)), id: row.id } }));
  }

  /** The statement listPage runs: the one of the order and filters given. */
  pageStatement(businessId: string, filter: AppointmentFilter, request: PageRequest): BoundStatement<readonly unknown[], AppointmentRow> {
    const ranged = filter.order === 'update' && (filter.from !== null || filter.to !== null);
    const shape: PageShape = {
      order: filter.order,
      ranged,
      staff: filter.staffId !== null,
      status: filter.status !== null,
      client: filter.clientId !== null,
    };
    const params: unknown[] = [businessId];
    if (filter.order === 'start') {
      params.push(...pageStart(request.after, filter.from), toTimestampLiteral(filter.to!));
    } else {
      params.push(...pageStart(request.after, filter.updatedSince));
      if (ranged)
        params.push(
          filter.from === null ? '-infinity' : toTimestampLiteral(filter.from),
          filter.to === null ? 'infinity' : toTimestampLiteral(filter.to),
        );
    }
    params.push(request.take);
    for (const value of [filter.staffId, filter.status, filter.clientId]) if (value !== null) params.push(value);
    return { statement: PAGES.get(pageName(shape))!, params };
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
    rescheduledToId: row.rescheduled_to_id,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
