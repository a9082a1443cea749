import { DateTime } from 'luxon';
import { validationFailed } from '../errors/domain-error.js';

/**
 * The instant of an RFC 3339 date-time with an offset. The contract checks the format; this
 * refuses what the format lets through but an instant cannot be (a leap second, 23:59:60).
 */
export function parseStartInstant(value: string, path: string): Date {
  // RFC 3339 lets a space separate date and time; ISO 8601 (and Luxon) want a T.
  const parsed = DateTime.fromISO(value.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T'), { setZone: true });
  if (!parsed.isValid) throw validationFailed([{ path, message: 'must be a real date-time with an offset' }]);
  return parsed.toJSDate();
}
