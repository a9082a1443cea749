import { DateTime } from 'luxon';
import type { Span, TimeInterval } from './time-interval.js';
import { resolvedIntervalOn, type WeeklyHours } from './working-hours.js';

/**
 * The one implementation of "when can this member start this service" (docs/design-record.md#d6,
 * docs/design-record.md#d15). A booking asks it about one start (checkSlot), GET /availability
 * about every grid start of a range (gridStarts); both go through the same three steps:
 *
 * 1. the member's working intervals, resolved to instants in the business's zone (DST-correct);
 * 2. the starts each interval allows for a duration d: [a, b − d], one closed window per
 *    interval, tagged with the interval's start (the grid's origin);
 * 3. minus the starts each busy interval [s, e) forbids: (s − d, e), by one sweep over the busy
 *    intervals sorted by start, so the cost is the number of intervals, not grid points × busy.
 *
 * Instants are epoch milliseconds throughout: exact, and cheap to compare.
 */

/** Closed window of allowed starts [lo, hi], with the start of the working interval it came from. */
export interface StartWindow {
  lo: number;
  hi: number;
  /** The working interval's start: the grid of GET /availability counts its steps from here. */
  origin: number;
}

const DAY_MS = 86_400_000;

/**
 * The local dates whose working intervals can hold a start in [from, to): a weekly interval never
 * crosses midnight, so from the day before `from` to the day of `to`. Resolved once per request
 * and shared by every member: a zoned date costs Intl offset lookups, the bulk of a range's CPU.
 */
export function localDates(timezone: string, from: number, to: number): readonly DateTime[] {
  const key = `${timezone}|${from}|${to}`;
  let dates = rememberedDates.get(key);
  if (!dates) {
    dates = resolveLocalDates(timezone, from, to);
    if (rememberedDates.size >= REMEMBERED_DATES_MAX) rememberedDates.clear();
    rememberedDates.set(key, dates);
  }
  return dates;
}

/**
 * Ranges already resolved: partners ask for the same week again and again (a booking page's
 * view), and a range's dates never change while the process runs. Bounded: emptied when full.
 */
const rememberedDates = new Map<string, readonly DateTime[]>();
const REMEMBERED_DATES_MAX = 1_000;

function resolveLocalDates(timezone: string, from: number, to: number): readonly DateTime[] {
  const first = DateTime.fromMillis(from - DAY_MS, { zone: timezone }).startOf('day');
  if (!first.isValid) throw new Error(`Unknown time zone: ${timezone}`);
  const last = DateTime.fromMillis(to, { zone: timezone }).startOf('day');
  const dates: DateTime[] = [];
  for (let date = first; date <= last; date = date.plus({ days: 1 })) dates.push(date);
  return dates;
}

/** The member's working intervals on those dates. */
export function workingIntervals(hours: readonly WeeklyHours[], dates: readonly DateTime[]): Readonly<TimeInterval>[] {
  const intervals: Readonly<TimeInterval>[] = [];
  if (hours.length === 0) return intervals;
  for (const date of dates) {
    for (const h of hours) if (h.weekday === date.weekday) intervals.push(resolvedIntervalOn(date, h));
  }
  return intervals;
}

/** Step 2: the starts each working interval allows for a duration, clipped to [from, to]. */
export function startWindows(intervals: readonly Readonly<TimeInterval>[], durationMs: number, from: number, to: number): StartWindow[] {
  const windows: StartWindow[] = [];
  for (const interval of intervals) {
    const origin = interval.start.getTime();
    const lo = Math.max(origin, from);
    const hi = Math.min(interval.end.getTime() - durationMs, to);
    if (lo <= hi) windows.push({ lo, hi, origin });
  }
  return windows.sort((a, b) => a.lo - b.lo || a.origin - b.origin);
}

/**
 * Step 3: the windows without the starts that would overlap a busy interval. The forbidden
 * starts of all busy intervals are merged in one pass over them sorted by start; each window is
 * then cut by the merged list from the first piece that can reach it (windows may overlap one
 * another when weekly intervals do, so each window scans from its own first candidate).
 */
export function withoutBusy(windows: readonly StartWindow[], busy: readonly Span[], durationMs: number): StartWindow[] {
  if (busy.length === 0 || windows.length === 0) return [...windows];
  // A busy [s, e) forbids the open interval of starts (s − d, e).
  const forbidden = busy.map(([start, end]) => ({ lo: start - durationMs, hi: end })).sort((a, b) => a.lo - b.lo);
  const merged: { lo: number; hi: number }[] = [];
  for (const f of forbidden) {
    const last = merged.at(-1);
    // Open intervals that only touch ((1, 3) and (3, 5)) leave 3 allowed: merge only on overlap.
    if (last && f.lo < last.hi) last.hi = Math.max(last.hi, f.hi);
    else merged.push({ ...f });
  }
  const free: StartWindow[] = [];
  let first = 0;
  for (const window of windows) {
    // Forbidden pieces ending at or before the window's start can never cut it or a later one.
    while (first < merged.length && merged[first].hi <= window.lo) first++;
    let lo = window.lo;
    for (let i = first; i < merged.length && merged[i].lo < window.hi && lo <= window.hi; i++) {
      const cut = merged[i];
      if (cut.hi <= lo) continue;
      if (cut.lo >= lo) free.push({ lo, hi: cut.lo, origin: window.origin });
      lo = cut.hi;
    }
    if (lo <= window.hi) free.push({ lo, hi: window.hi, origin: window.origin });
  }
  return free;
}

/**
 * Whether the slot lies inside ONE of the weekly intervals, read in the business's time zone:
 * its start is one the working intervals allow for its duration.
 */
export function fitsWorkingHours(slot: TimeInterval, hours: readonly WeeklyHours[], timezone: string): boolean {
  const start = slot.start.getTime();
  const intervals = workingIntervals(hours, localDates(timezone, start, start));
  return startAllowed(startWindows(intervals, slot.end.getTime() - start, start, start), start);
}

/** Whether a start lies in one of the windows. */
export function startAllowed(windows: readonly StartWindow[], start: number): boolean {
  return windows.some((w) => w.lo <= start && start <= w.hi);
}

/** The grid starts of the windows: origin + k × step, ascending, without duplicates. */
export function gridStarts(windows: readonly StartWindow[], stepMs: number): number[] {
  const starts: number[] = [];
  let ordered = true;
  for (const w of windows) {
    const k = Math.ceil((w.lo - w.origin) / stepMs);
    for (let t = w.origin + k * stepMs; t <= w.hi; t += stepMs) {
      if (starts.length > 0 && t <= starts[starts.length - 1]) ordered = false;
      starts.push(t);
    }
  }
  // Windows of overlapping weekly intervals can offer a start twice, or out of order.
  if (ordered) return starts;
  return [...new Set(starts)].sort((a, b) => a - b);
}
