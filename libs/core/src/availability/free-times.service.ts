import { Injectable } from '@nestjs/common';
import { notFound, validationFailed } from '../errors/domain-error.js';
import { parseStartInstant } from '../appointments/start-instant.js';
import { AvailabilityFactsRepository, type MemberFacts } from './availability-facts.repository.js';
import type { DateTime } from 'luxon';
import { gridStarts, localDates, startWindows, withoutBusy, workingIntervals } from './free-starts.js';
import { LAST_WRITABLE, performsService } from './slot-check.js';

export interface FreeTimesQuery {
  serviceId: string;
  /** RFC 3339 date-times with an offset. */
  from: string;
  to: string;
  staffId?: string;
}

export interface FreeStart {
  startAt: Date;
  endAt: Date;
  /** Every member who can take it, ordered by id. */
  staffIds: string[];
}

export interface FreeTimes {
  serviceId: string;
  durationMin: number;
  stepMin: number;
  timeZone: string;
  starts: FreeStart[];
}

/** D15's longest range. */
const MAX_RANGE_DAYS = 31;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * GET /availability (docs/design-record.md#d15): the grid starts in [from, to) at which each
 * member could be booked. One read of the facts, then per member the rules of free-starts.ts,
 * the ones a booking applies to its one start (checkSlot): working intervals in the business's
 * zone, start windows for the duration, minus appointments and blocks, from now on.
 */
@Injectable()
export class FreeTimesService {
  constructor(private readonly facts: AvailabilityFactsRepository) {}

  async find(businessId: string, query: FreeTimesQuery, now: Date = new Date()): Promise<FreeTimes> {
    const from = parseStartInstant(query.from, '/query/from');
    const to = parseStartInstant(query.to, '/query/to');
    if (from.getTime() >= to.getTime()) throw validationFailed([{ path: '/query/to', message: 'must be after from' }]);
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
      throw validationFailed([{ path: '/query/to', message: `must be at most ${MAX_RANGE_DAYS} days after from` }]);
    }
    const facts = await this.facts.load(businessId, query.serviceId, query.staffId ?? null, from, to);
    if (!facts) throw notFound('The business');
    if (!facts.service) throw notFound('The service');
    if (!facts.staffFound) throw notFound('The staff member');
    const { service } = facts;
    const answer = { serviceId: query.serviceId, durationMin: service.durationMin, stepMin: facts.stepMin, timeZone: facts.timezone };
    if (!service.active) return { ...answer, starts: [] };

    const durationMs = service.durationMin * MINUTE_MS;
    // Starts from now (a start in the past is refused) and before `to`, ending by the year 9999.
    const first = Math.max(from.getTime(), now.getTime());
    const last = Math.min(to.getTime() - 1, LAST_WRITABLE - durationMs);
    const byStart = new Map<number, string[]>();
    // The query's own bounds, not `first`: now moves, and the range's dates are remembered.
    const dates = first <= last ? localDates(facts.timezone, from.getTime(), last) : [];
    for (const member of facts.members) {
      if (!member.active || !performsService(member.serviceIds, query.serviceId)) continue;
      for (const start of memberStarts(member, dates, durationMs, facts.stepMin * MINUTE_MS, first, last)) {
        const ids = byStart.get(start);
        if (ids) ids.push(member.id);
        else byStart.set(start, [member.id]);
      }
    }
    const starts = [...byStart.entries()]
      .sort(([a], [b]) => a - b)
      // The members come ordered by id, so each start's staffIds are too.
      .map(([start, staffIds]) => ({ startAt: new Date(start), endAt: new Date(start + durationMs), staffIds }));
    return { ...answer, starts };
  }
}

function memberStarts(
  member: MemberFacts,
  dates: readonly DateTime[],
  durationMs: number,
  stepMs: number,
  first: number,
  last: number,
): number[] {
  if (first > last) return [];
  const windows = startWindows(workingIntervals(member.workingHours, dates), durationMs, first, last);
  const free = withoutBusy(windows, member.busy, durationMs);
  return gridStarts(free, stepMs);
}
