import { parseDateTime, toTimestampLiteral } from './epoch-micros.js';

const micros = (iso: string, extraMicros = 0n) => BigInt(Date.parse(iso)) * 1000n + extraMicros;

describe('parseDateTime', () => {
  it('keeps microseconds that a Date would lose, and drops what is finer', () => {
    expect(parseDateTime('2030-01-07T09:00:00.123456Z')).toBe(micros('2030-01-07T09:00:00.123Z', 456n));
    expect(parseDateTime('2030-01-07T09:00:00.1234569Z')).toBe(micros('2030-01-07T09:00:00.123Z', 456n));
    expect(parseDateTime('2030-01-07T09:00:00.5Z')).toBe(micros('2030-01-07T09:00:00.500Z'));
    expect(parseDateTime('2030-01-07T09:00:00Z')).toBe(micros('2030-01-07T09:00:00.000Z'));
  });

  it('reads every offset form of the date-time format to the same instant', () => {
    const utc = micros('2030-01-07T09:00:00Z');
    for (const text of [
      '2030-01-07T10:00:00+01:00',
      '2030-01-07T10:00:00+0100',
      '2030-01-07T10:00:00+01',
      '2030-01-07t09:00:00z',
      '2030-01-07 09:00:00Z',
      '2030-01-07T05:30:00-03:30',
      '2030-01-06T23:00:00-10:00',
    ]) {
      expect({ text, value: parseDateTime(text) }).toEqual({ text, value: utc });
    }
  });

  it('reads a leap second as the next minute, as PostgreSQL does', () => {
    expect(parseDateTime('2030-12-31T23:59:60Z')).toBe(micros('2031-01-01T00:00:00Z'));
  });

  it('is null for what is not a date-time', () => {
    for (const text of [
      '',
      'tomorrow',
      '2030-01-07',
      '2030-01-07T09:00:00',
      '2030-02-30T09:00:00Z',
      '2030-01-07T24:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-01-07T09:00:00+25:00',
      '2030-01-07T09:00:00.Z',
    ]) {
      expect({ text, value: parseDateTime(text) }).toEqual({ text, value: null });
    }
  });

  it('is null outside the years 0001 to 9999 (UTC), which PostgreSQL cannot read back as written', () => {
    for (const text of ['0000-12-31T23:59:59Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:59:59-00:01']) {
      expect({ text, value: parseDateTime(text) }).toEqual({ text, value: null });
    }
    expect(parseDateTime('0001-01-01T00:00:00Z')).toBe(BigInt(Date.parse('0001-01-01T00:00:00Z')) * 1000n);
    expect(parseDateTime('9999-12-31T23:59:59.999999Z')).toBe(253_402_300_799_999_999n);
  });

  it('handles instants before 1970', () => {
    expect(parseDateTime('1969-12-31T23:59:59.999999Z')).toBe(-1n);
  });
});

describe('toTimestampLiteral', () => {
  it('writes UTC with six decimals', () => {
    expect(toTimestampLiteral(micros('2030-01-07T09:00:00.123Z', 456n))).toBe('2030-01-07T09:00:00.123456Z');
    expect(toTimestampLiteral(micros('2030-01-07T09:00:00Z', 7n))).toBe('2030-01-07T09:00:00.000007Z');
    expect(toTimestampLiteral(-1n)).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('round-trips with parseDateTime', () => {
    for (const value of [0n, 1n, -1n, 1_893_456_000_123_456n, 253_402_300_799_999_999n]) {
      expect(parseDateTime(toTimestampLiteral(value))).toBe(value);
    }
  });

  it('refuses years a timestamp literal cannot carry', () => {
    expect(() => toTimestampLiteral(253_402_300_800_000_000n)).toThrow(RangeError);
  });
});
