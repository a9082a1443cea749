import { gridStarts, localDates, startWindows, withoutBusy, workingIntervals, type StartWindow } from './free-starts.js';
import type { Span } from './time-interval.js';
import type { WeeklyHours } from './working-hours.js';

const at = (iso: string) => Date.parse(iso);
const min = 60_000;
const interval = (from: string, to: string): Span => [Date.parse(from), Date.parse(to)];
const iso = (starts: number[]) => starts.map((t) => new Date(t).toISOString());

/** The starts of one day's windows for a duration and step, as ISO strings. */
function starts(
  hours: WeeklyHours[],
  zone: string,
  from: string,
  to: string,
  durationMin: number,
  stepMin: number,
  busy = [] as ReturnType<typeof interval>[],
) {
  const windows = startWindows(workingIntervals(hours, localDates(zone, at(from), at(to))), durationMin * min, at(from), at(to) - 1);
  return iso(gridStarts(withoutBusy(windows, busy, durationMin * min), stepMin * min));
}

describe('free starts', () => {
  const monday: WeeklyHours[] = [
    { weekday: 1, startTime: '09:00', endTime: '12:00' },
    { weekday: 1, startTime: '12:00', endTime: '13:10' },
  ];

  it('puts the grid at the start of each working interval and keeps a slot inside one interval', () => {
    // Adjacent intervals are not one: 11:45 + 30 min would cross 12:00.
    expect(starts(monday, 'UTC', '2030-01-07T00:00:00Z', '2030-01-08T00:00:00Z', 30, 45)).toEqual([
      '2030-01-07T09:00:00.000Z',
      '2030-01-07T09:45:00.000Z',
      '2030-01-07T10:30:00.000Z',
      '2030-01-07T11:15:00.000Z',
      // The second interval's grid starts over at 12:00; 12:45 would end past 13:10.
      '2030-01-07T12:00:00.000Z',
    ]);
  });

  it('frees a start exactly where a busy interval ends, and up to one that touches its start', () => {
    const busy = [interval('2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z')];
    expect(starts(monday.slice(0, 1), 'UTC', '2030-01-07T09:00:00Z', '2030-01-07T11:00:00Z', 30, 15, busy)).toEqual([
      '2030-01-07T09:00:00.000Z',
      '2030-01-07T09:15:00.000Z',
      '2030-01-07T09:30:00.000Z',
      '2030-01-07T10:30:00.000Z',
      '2030-01-07T10:45:00.000Z',
    ]);
  });

  it('merges overlapping busy intervals but keeps the start between two that only touch', () => {
    const windows: StartWindow[] = [{ lo: 0, hi: 100, origin: 0 }];
    const busy = (s: number, e: number): Span => [s, e];
    // Duration 10: busy [20, 30) forbids (10, 30); busy [40, 50) forbids (30, 50): 30 stays.
    expect(withoutBusy(windows, [busy(40, 50), busy(20, 30)], 10)).toEqual([
      { lo: 0, hi: 10, origin: 0 },
      { lo: 30, hi: 30, origin: 0 },
      { lo: 50, hi: 100, origin: 0 },
    ]);
    expect(withoutBusy(windows, [busy(20, 35), busy(30, 50)], 10)).toEqual([
      { lo: 0, hi: 10, origin: 0 },
      { lo: 50, hi: 100, origin: 0 },
    ]);
    expect(withoutBusy(windows, [busy(-50, 200)], 10)).toEqual([]);
  });

  it('offers nothing from an interval shorter than the service', () => {
    expect(
      starts([{ weekday: 1, startTime: '09:00', endTime: '09:20' }], 'UTC', '2030-01-07T00:00:00Z', '2030-01-08T00:00:00Z', 30, 5),
    ).toEqual([]);
  });

  it('counts the grid in real minutes across the spring-forward gap (Europe/Lisbon, 2031-03-30)', () => {
    // 00:00-04:00 local is three real hours that day: 01:00 becomes 02:00.
    const hours: WeeklyHours[] = [{ weekday: 7, startTime: '00:00', endTime: '04:00' }];
    const result = starts(hours, 'Europe/Lisbon', '2031-03-29T12:00:00Z', '2031-03-31T00:00:00Z', 60, 60);
    expect(result).toEqual(['2031-03-30T00:00:00.000Z', '2031-03-30T01:00:00.000Z', '2031-03-30T02:00:00.000Z']);
  });

  it('works both 01:30s of the night the clocks go back (America/New_York, 2031-11-02)', () => {
    const hours: WeeklyHours[] = [{ weekday: 7, startTime: '01:00', endTime: '02:00' }];
    // The wider reading: the first 01:00 (05:00Z) to the second 02:00 (07:00Z).
    const result = starts(hours, 'America/New_York', '2031-11-02T00:00:00Z', '2031-11-03T00:00:00Z', 30, 30);
    expect(result).toEqual([
      '2031-11-02T05:00:00.000Z',
      '2031-11-02T05:30:00.000Z',
      '2031-11-02T06:00:00.000Z',
      '2031-11-02T06:30:00.000Z',
    ]);
  });

  it('knows a half-hour DST (Australia/Lord_Howe) and a midnight one (America/Santiago)', () => {
    // Lord Howe goes from +10:30 to +11 on 2031-10-05 at 02:00: 01:00-04:00 is 2.5 real hours.
    const lordHowe = starts(
      [{ weekday: 7, startTime: '01:00', endTime: '04:00' }],
      'Australia/Lord_Howe',
      '2031-10-04T00:00:00Z',
      '2031-10-05T12:00:00Z',
      30,
      30,
    );
    expect(lordHowe).toHaveLength(5);
    // Santiago's clocks jump from 00:00 to 01:00 on 2031-09-07: the day starts at 01:00 (04:00Z).
    const santiago = starts(
      [{ weekday: 7, startTime: '00:00', endTime: '02:00' }],
      'America/Santiago',
      '2031-09-06T00:00:00Z',
      '2031-09-08T00:00:00Z',
      60,
      60,
    );
    expect(santiago).toEqual(['2031-09-07T04:00:00.000Z']);
  });

  it('offers only starts inside [from, to)', () => {
    const all = starts(monday.slice(0, 1), 'UTC', '2030-01-07T09:20:00Z', '2030-01-07T10:00:00Z', 30, 15);
    expect(all).toEqual(['2030-01-07T09:30:00.000Z', '2030-01-07T09:45:00.000Z']);
  });
});
