import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { FieldError } from '../errors/domain-error.js';
import { parseDateTime } from '../pagination/epoch-micros.js';
import type { AppointmentFilter } from './appointment-reads.repository.js';

/** The filters of GET /appointments as the request gives them (already checked against the contract). */
export interface AppointmentListFilterInput {
  from: string;
  to: string;
  status?: AppointmentStatus;
  staffId?: string;
}

export type AppointmentFilterCheck = { ok: true; filter: AppointmentFilter } | { ok: false; errors: FieldError[] };

/**
 * Reads the range to the microsecond and requires `from` before `to` (docs/design-record.md#d5). The staff id is
 * lower-cased and stripped of the `urn:uuid:` prefix that the uuid format also admits, so one
 * staff member is always one filter (and one cursor scope).
 */
export function readAppointmentFilter(input: AppointmentListFilterInput): AppointmentFilterCheck {
  const from = parseDateTime(input.from);
  const to = parseDateTime(input.to);
  const errors: FieldError[] = [];
  if (from === null) errors.push({ path: '/query/from', message: 'must be a date-time with an offset, in the years 0001 to 9999' });
  if (to === null) errors.push({ path: '/query/to', message: 'must be a date-time with an offset, in the years 0001 to 9999' });
  if (from === null || to === null) return { ok: false, errors };
  if (from >= to) return { ok: false, errors: [{ path: '/query/from', message: 'must be before to' }] };
  const staffId = input.staffId === undefined ? null : input.staffId.toLowerCase().replace(/^urn:uuid:/, '');
  return { ok: true, filter: { from, to, status: input.status ?? null, staffId } };
}
