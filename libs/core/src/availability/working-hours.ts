import { DateTime } from 'luxon';
import type { TimeInterval } from './time-interval.js';

/** One weekly working interval in local wall-clock time (the shape of staff_working_hours). */
export interface WeeklyHours {
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** HH:MM or HH:MM:SS, local. */
  startTime: string;
  /** HH:MM or HH:MM:SS, local; 24:00 is the end of the day. */
  endTime: string;
}

const WALL_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instants a wall-clock time of one local date stands for: one normally, two when the clocks
 * go back (01:30 happens twice), and the shifted one when they go forward (01:30 does not exist
 * and Luxon moves it past the gap).
 */
function instantsOf(date: DateTime, wallTime: string): DateTime[] {
  const match = WALL_TIME.exec(wallTime);
  if (!match) throw new Error(`Not a wall-clock time: ${wallTime}`);
  const local = DateTime.fromObject(
    { year: date.year, month: date.month, day: date.day, hour: Number(match[1]), minute: Number(match[2]), second: Number(match[3] ?? 0) },
    { zone: date.zone },
  );
  return local.getPossibleOffsets().sort((a, b) => a.toMillis() - b.toMillis());
}

/**
 * The instants a weekly interval covers on the given local date. Where a bound is ambiguous the
 * interval takes the wider reading (the first 01:00 to the second 02:00), so a staff member
 * working "01:00–02:00" on the night the clocks go back works both of its 01:30s.
 */
export function workingIntervalOn(date: DateTime, hours: WeeklyHours): TimeInterval {
  const interval = resolvedIntervalOn(date, hours);
  return { start: new Date(interval.start), end: new Date(interval.end) };
}

/** The remembered interval itself, for readers that never change it (free-starts.ts): no copies. */
export function resolvedIntervalOn(date: DateTime, hours: WeeklyHours): Readonly<TimeInterval> {
  const key = `${date.zoneName}|${date.year}-${date.month}-${date.day}|${hours.startTime}|${hours.endTime}`;
  let interval = resolvedIntervals.get(key);
  if (!interval) {
    const starts = instantsOf(date, hours.startTime);
    const ends = instantsOf(date, hours.endTime);
    interval = { start: starts[0].toJSDate(), end: ends[ends.length - 1].toJSDate() };
    if (resolvedIntervals.size >= RESOLVED_INTERVALS_MAX) resolvedIntervals.clear();
    resolvedIntervals.set(key, interval);
  }
  return interval;
}

/**
 * Weekly intervals already resolved to instants, by zone, local date and wall-clock bounds.
 * Resolving one takes several Intl offset lookups (a tenth of a booking's CPU time in the
 * benchmark) and its answer never changes while the process runs (the time-zone rules are
 * loaded once), while bookings keep asking about the same few days. Bounded: emptied when full.
 */
const resolvedIntervals = new Map<string, TimeInterval>();
const RESOLVED_INTERVALS_MAX = 10_000;
