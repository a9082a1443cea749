/**
 * An instant as whole microseconds since the Unix epoch: the precision PostgreSQL keeps. A JS Date
 * keeps only milliseconds, so a keyset position held in a Date would skip or repeat the rows that
 * share a millisecond; positions and time filters travel as bigint microseconds instead.
 */
export type EpochMicros = bigint;

/** The forms the contract's `date-time` format admits: `T`, `t` or a space; `Z`, `z`, `±hh`, `±hhmm` or `±hh:mm`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The instants both sides can write: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z.
 * PostgreSQL has no year 0 in ISO 8601 text (it counts 1 BC), and a Date writes years past 9999
 * with a sign, so a date-time outside (year 0000, or an offset that crosses the ends) is refused
 * as input rather than failing in SQL.
 */
export const MIN_MICROS = BigInt(Date.parse('0001-01-01T00:00:00Z')) * 1000n;
const MAX_MICROS = BigInt(Date.parse('9999-12-31T23:59:59.999Z')) * 1000n + 999n;

/**
 * Reads an RFC 3339 date-time to the microsecond (further decimals are dropped), in any offset;
 * null when it is not one, or when the instant is outside the years 0001 to 9999 (UTC). A leap
 * second (`23:59:60`) is the first instant of the next minute, as PostgreSQL reads it.
 */
export function parseDateTime(text: string): EpochMicros | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [fraction = '', zulu, sign, offsetHours = '0', offsetMinutes = '0'] = match.slice(7);
  if (hour > 23 || minute > 59 || second > 60 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, 0);
  const local = BigInt(date.getTime()) * 1000n + BigInt(fraction.slice(0, 6).padEnd(6, '0'));
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const instant = local - BigInt(offset) * 60_000_000n;
  return instant < MIN_MICROS || instant > MAX_MICROS ? null : instant;
}

/**
 * The instant written so that PostgreSQL reads it back exactly: ISO 8601 in UTC with six
 * decimals (`2030-01-07T09:00:00.123456Z`). Years 0001 to 9999 only (what parseDateTime admits).
 */
export function toTimestampLiteral(micros: EpochMicros): string {
  const millis = floorDiv(micros, 1000n);
  const iso = new Date(Number(millis)).toISOString();
  if (!/^\d{4}-/.test(iso)) throw new RangeError(`${micros} µs is outside the years 0 to 9999`);
  const rest = micros - millis * 1000n;
  return `${iso.slice(0, -1)}${rest.toString().padStart(3, '0')}Z`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b < 0n ? quotient - 1n : quotient;
}
