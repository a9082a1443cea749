import { DateTime } from 'luxon';

export type BirthDateCheck = { ok: true; value: string | null } | { ok: false; reason: string };

/** YYYY-MM-DD, a real calendar date, not in the future; "" and null mean none (docs/design-record.md#d7). */
export function checkBirthDate(raw: string | null | undefined, today: Date = new Date()): BirthDateCheck {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
  const date = DateTime.fromFormat(raw, 'yyyy-MM-dd', { zone: 'utc' });
  if (!date.isValid) return { ok: false, reason: 'must be a calendar date written YYYY-MM-DD' };
  // Compared as calendar days: a birth date "today" anywhere on Earth is accepted.
  if (raw > DateTime.fromJSDate(today).plus({ days: 1 }).toUTC().toISODate()!) {
    return { ok: false, reason: 'must not be in the future' };
  }
  if (date.year < 1900) return { ok: false, reason: 'must be after 1900-01-01' };
  return { ok: true, value: raw };
}
