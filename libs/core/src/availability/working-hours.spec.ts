import { DateTime } from 'luxon';
import { fitsWorkingHours } from './free-starts.js';
import { workingIntervalOn, type WeeklyHours } from './working-hours.js';

const slot = (startIso: string, minutes: number) => {
  const start = new Date(startIso);
  return { start, end: new Date(start.getTime() + minutes * 60_000) };
};
const sunday = (startTime: string, endTime: string): WeeklyHours[] => [{ weekday: 7, startTime, endTime }];
const LISBON = 'Europe/Lisbon';
const NEW_YORK = 'America/New_York';

describe('fitsWorkingHours: ordinary days', () => {
  const hours: WeeklyHours[] = [
    { weekday: 1, startTime: '09:00:00', endTime: '13:00:00' },
    { weekday: 1, startTime: '13:00:00', endTime: '17:00:00' },
  ];

  it('reads the hours in the business time zone (Lisbon winter = UTC, summer = UTC+1)', () => {
    expect(fitsWorkingHours(slot('2030-01-07T09:00:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2030-01-07T08:30:00Z', 30), hours, LISBON)).toBe(false);
    // Monday 2030-07-01 09:00 in Lisbon is 08:00Z.
    expect(fitsWorkingHours(slot('2030-07-01T08:00:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2030-07-01T09:00:00+01:00', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2030-07-01T07:59:00Z', 30), hours, LISBON)).toBe(false);
  });

  it('takes the weekday of the local date, not of UTC', () => {
    // 2030-01-07T23:30-05:00 (Monday in New York) is Tuesday in UTC.
    const monday: WeeklyHours[] = [{ weekday: 1, startTime: '20:00', endTime: '24:00' }];
    expect(fitsWorkingHours(slot('2030-01-08T04:30:00Z', 30), monday, NEW_YORK)).toBe(true);
    expect(fitsWorkingHours(slot('2030-01-08T04:30:00Z', 31), monday, NEW_YORK)).toBe(false);
    expect(fitsWorkingHours(slot('2030-01-08T04:30:00Z', 30), monday, LISBON)).toBe(false);
  });

  it('needs one interval to hold the whole slot; touching the end is allowed', () => {
    expect(fitsWorkingHours(slot('2030-01-07T12:30:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2030-01-07T12:45:00Z', 30), hours, LISBON)).toBe(false);
    expect(fitsWorkingHours(slot('2030-01-07T16:30:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2030-01-07T16:31:00Z', 30), hours, LISBON)).toBe(false);
  });

  it('has no hours on a day without intervals', () => {
    expect(fitsWorkingHours(slot('2030-01-08T10:00:00Z', 30), hours, LISBON)).toBe(false);
    expect(fitsWorkingHours(slot('2030-01-07T10:00:00Z', 30), [], LISBON)).toBe(false);
  });
});

describe('fitsWorkingHours: Europe/Lisbon DST days of 2026', () => {
  it('spring forward (Sunday 2026-03-29, 01:00 WET → 02:00 WEST): 00:30–03:00 lasts 90 real minutes', () => {
    const hours = sunday('00:30', '03:00');
    // 00:30 WET is 00:30Z; 03:00 WEST is 02:00Z.
    expect(fitsWorkingHours(slot('2026-03-29T00:30:00Z', 90), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2026-03-29T00:30:00Z', 91), hours, LISBON)).toBe(false);
    // Wall-clock arithmetic would allow 150 minutes.
    expect(fitsWorkingHours(slot('2026-03-29T00:30:00Z', 120), hours, LISBON)).toBe(false);
    // 02:30 WEST (01:30Z), after the gap, is inside.
    expect(fitsWorkingHours(slot('2026-03-29T02:30:00+01:00', 30), hours, LISBON)).toBe(true);
  });

  it('spring forward: the hours after the change use the summer offset', () => {
    const hours = sunday('09:00', '13:00');
    expect(fitsWorkingHours(slot('2026-03-29T08:00:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2026-03-29T07:30:00Z', 30), hours, LISBON)).toBe(false);
    expect(fitsWorkingHours(slot('2026-03-29T11:30:00Z', 30), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2026-03-29T12:30:00Z', 30), hours, LISBON)).toBe(false);
  });

  it('fall back (Sunday 2026-10-25, 02:00 WEST → 01:00 WET): both 01:30s are inside 01:00–02:00', () => {
    const hours = sunday('01:00', '02:00');
    expect(fitsWorkingHours(slot('2026-10-25T01:30:00+01:00', 30), hours, LISBON)).toBe(true); // 00:30Z
    expect(fitsWorkingHours(slot('2026-10-25T01:30:00+00:00', 30), hours, LISBON)).toBe(true); // 01:30Z
    expect(fitsWorkingHours(slot('2026-10-25T01:30:00+00:00', 31), hours, LISBON)).toBe(false);
    expect(fitsWorkingHours(slot('2026-10-25T00:59:00+01:00', 30), hours, LISBON)).toBe(false);
  });

  it('fall back: 00:00–03:00 lasts four real hours', () => {
    const hours = sunday('00:00', '03:00');
    // 00:00 WEST is Saturday 23:00Z; 03:00 WET is 03:00Z.
    expect(fitsWorkingHours(slot('2026-10-24T23:00:00Z', 240), hours, LISBON)).toBe(true);
    expect(fitsWorkingHours(slot('2026-10-24T23:00:00Z', 241), hours, LISBON)).toBe(false);
  });
});

describe('fitsWorkingHours: America/New_York DST days of 2026', () => {
  it('spring forward (Sunday 2026-03-08, 02:00 EST → 03:00 EDT): an interval spanning the gap', () => {
    const hours = sunday('01:00', '04:00');
    // 01:00 EST is 06:00Z; 04:00 EDT is 08:00Z: two real hours.
    expect(fitsWorkingHours(slot('2026-03-08T01:30:00-05:00', 90), hours, NEW_YORK)).toBe(true);
    expect(fitsWorkingHours(slot('2026-03-08T01:30:00-05:00', 91), hours, NEW_YORK)).toBe(false);
    expect(fitsWorkingHours(slot('2026-03-08T03:00:00-04:00', 60), hours, NEW_YORK)).toBe(true);
  });

  it('spring forward: an interval starting inside the gap starts past it', () => {
    // 02:30 does not exist that night; it reads as 03:30 EDT (07:30Z).
    const hours = sunday('02:30', '05:00');
    expect(fitsWorkingHours(slot('2026-03-08T03:00:00-04:00', 30), hours, NEW_YORK)).toBe(false);
    expect(fitsWorkingHours(slot('2026-03-08T03:30:00-04:00', 90), hours, NEW_YORK)).toBe(true);
  });

  it('fall back (Sunday 2026-11-01, 02:00 EDT → 01:00 EST): a 01:30 start either time', () => {
    const hours = sunday('01:00', '02:00');
    expect(fitsWorkingHours(slot('2026-11-01T01:30:00-04:00', 30), hours, NEW_YORK)).toBe(true); // 05:30Z
    expect(fitsWorkingHours(slot('2026-11-01T01:30:00-05:00', 30), hours, NEW_YORK)).toBe(true); // 06:30Z
    // The first 01:30 plus 90 minutes is 02:00 EST: still inside, as the night has two 01:xx hours.
    expect(fitsWorkingHours(slot('2026-11-01T01:30:00-04:00', 90), hours, NEW_YORK)).toBe(true);
    expect(fitsWorkingHours(slot('2026-11-01T01:30:00-04:00', 91), hours, NEW_YORK)).toBe(false);
  });

  it('fall back: the hours after the change use the winter offset', () => {
    const hours = sunday('09:00', '17:00');
    expect(fitsWorkingHours(slot('2026-11-01T14:00:00Z', 60), hours, NEW_YORK)).toBe(true);
    expect(fitsWorkingHours(slot('2026-11-01T13:30:00Z', 60), hours, NEW_YORK)).toBe(false);
    expect(fitsWorkingHours(slot('2026-11-01T21:30:00Z', 30), hours, NEW_YORK)).toBe(true);
    expect(fitsWorkingHours(slot('2026-11-01T21:31:00Z', 30), hours, NEW_YORK)).toBe(false);
  });
});

describe('workingIntervalOn', () => {
  it('answers the same instants when asked again (remembered), each time in Dates of its own', () => {
    const date = DateTime.fromISO('2026-03-29T12:00:00', { zone: 'Europe/Lisbon' });
    const hours: WeeklyHours = { weekday: 7, startTime: '00:30', endTime: '03:00' };
    const first = workingIntervalOn(date, hours);
    // Lisbon springs forward at 01:00 that night: 00:30 WET is 00:30Z, 03:00 WEST is 02:00Z.
    expect(first).toEqual({ start: new Date('2026-03-29T00:30:00Z'), end: new Date('2026-03-29T02:00:00Z') });
    first.start.setTime(0);
    expect(workingIntervalOn(date, hours)).toEqual({ start: new Date('2026-03-29T00:30:00Z'), end: new Date('2026-03-29T02:00:00Z') });
    // Another zone, the same wall-clock hours: other instants (00:30 CET is 23:30Z the day before).
    expect(workingIntervalOn(date.setZone('Europe/Madrid', { keepLocalTime: true }), hours).start).toEqual(
      new Date('2026-03-28T23:30:00Z'),
    );
  });
});
