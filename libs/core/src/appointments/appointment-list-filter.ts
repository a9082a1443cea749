import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { FieldError } from '../errors/domain-error.js';
import { parseDateTime, type EpochMicros } from '../pagination/epoch-micros.js';
import type { AppointmentFilter } from './appointment-reads.repository.js';

/** The filters of GET /appointments as the request gives them (already checked against the contract). */
export interface AppointmentListFilterInput {
  from?: string;
  to?: string;
  updatedSince?: string;
  status?: AppointmentStatus;
  staffId?: string;
  clientId?: string;
}

export type AppointmentFilterCheck = { ok: true; filter: AppointmentFilter } | { ok: false; errors: FieldError[] };

const DATE_TIME_MESSAGE = 'must be a date-time with an offset, in the years 0001 to 9999';

/**
 * Reads the filters of GET /appointments (docs/design-record.md#d5, #d23). Two forms: by start,
 * `from` and `to` both required and `from` before `to`; or by update (`updatedSince`, 1.4.0), where
 * `from` and `to` are optional bounds of the start. Times are read to the microsecond. Ids are
 * lower-cased and stripped of the `urn:uuid:` prefix that the uuid format also admits, so one staff
 * member or client is always one filter (and one cursor scope).
 */
export function readAppointmentFilter(input: AppointmentListFilterInput): AppointmentFilterCheck {
  const errors: FieldError[] = [];
  const read = (name: 'from' | 'to' | 'updatedSince'): EpochMicros | null => {
    const text = input[name];
    if (text === undefined) return null;
    const micros = parseDateTime(text);
    if (micros === null) errors.push({ path: `/query/${name}`, message: DATE_TIME_MESSAGE });
    return micros;
  };
  const from = read('from');
  const to = read('to');
  const updatedSince = read('updatedSince');
  if (errors.length > 0) return { ok: false, errors };
  const byUpdate = input.updatedSince !== undefined;
  if (!byUpdate) {
    const message = 'is required unless updatedSince is given';
    if (input.from === undefined) errors.push({ path: '/query/from', message });
    if (input.to === undefined) errors.push({ path: '/query/to', message });
    if (errors.length > 0) return { ok: false, errors };
  }
  if (from !== null && to !== null && from >= to) return { ok: false, errors: [{ path: '/query/from', message: 'must be before to' }] };
  return {
    ok: true,
    filter: {
      order: byUpdate ? 'update' : 'start',
      from,
      to,
      updatedSince,
      status: input.status ?? null,
      staffId: canonicalId(input.staffId),
      clientId: canonicalId(input.clientId),
    },
  };
}

function canonicalId(id: string | undefined): string | null {
  return id === undefined ? null : id.toLowerCase().replace(/^urn:uuid:/, '');
}
