import { localDates, startAllowed, startWindows, withoutBusy, workingIntervals } from './free-starts.js';
import { spanOf, type TimeInterval } from './time-interval.js';
import type { WeeklyHours } from './working-hours.js';

/** Everything that decides whether a slot is free (docs/design-record.md#d6), gathered before deciding. */
export interface SlotFacts {
  now: Date;
  slot: TimeInterval;
  /** IANA time zone of the business: weekly hours are read in it. */
  timezone: string;
  staffActive: boolean;
  /** Null when the service no longer exists (an appointment whose service was deleted). */
  service: { active: boolean; performedByStaff: boolean } | null;
  workingHours: readonly WeeklyHours[];
  /** The staff member's PENDING/CONFIRMED appointments near the slot, the one being replaced left out. */
  appointments: readonly TimeInterval[];
  /** The staff member's time blocks near the slot. */
  blocks: readonly TimeInterval[];
}

export interface SlotRefusal {
  code: 'SLOT_UNAVAILABLE' | 'SLOT_TAKEN';
  detail: string;
  /**
   * The same reason said of an "any staff" booking, which names no staff member
   * (docs/design-record.md#d16): what every member who performs the service shares.
   */
  anyStaffDetail: string;
}

/** What an "any staff" refusal says when its members are refused for different reasons. */
export const NO_MEMBER_FREE = 'No staff member who performs the service is free at this start.';

/** The last instant the API can write (`9999-12-31T23:59:59.999Z`): a Date past it prints a six-digit year. */
export const LAST_WRITABLE = Date.parse('9999-12-31T23:59:59.999Z');

/** A staff member with no service list performs every service (docs/design-record.md#d6). */
export function performsService(servicesOfStaff: readonly string[], serviceId: string): boolean {
  return servicesOfStaff.length === 0 || servicesOfStaff.includes(serviceId);
}

/**
 * Why the slot cannot be booked, or null when it can. What the business offers is checked
 * before what is already booked, so SLOT_TAKEN always means "free at another time".
 */
export function checkSlot(facts: SlotFacts): SlotRefusal | null {
  // A reason that is not the member's reads the same for "any staff".
  const unavailable = (detail: string, anyStaffDetail: string = detail): SlotRefusal => ({
    code: 'SLOT_UNAVAILABLE',
    detail,
    anyStaffDetail,
  });
  if (facts.slot.start.getTime() < facts.now.getTime()) return unavailable('The start is in the past.');
  if (facts.slot.end.getTime() > LAST_WRITABLE) return unavailable('The appointment would end after the year 9999.');
  if (!facts.service) return unavailable('The service is no longer offered.');
  if (!facts.service.active) return unavailable('The service is not active.');
  if (!facts.service.performedByStaff) return unavailable('The staff member does not perform this service.', NO_MEMBER_FREE);
  if (!facts.staffActive) return unavailable('The staff member takes no bookings.', NO_MEMBER_FREE);
  // The time rules are free-starts.ts's, the same GET /availability applies to a range.
  const start = facts.slot.start.getTime();
  const durationMs = facts.slot.end.getTime() - start;
  const intervals = workingIntervals(facts.workingHours, localDates(facts.timezone, start, start));
  const windows = startWindows(intervals, durationMs, start, start);
  if (!startAllowed(windows, start)) {
    return unavailable(
      "The interval is not inside one of the staff member's working hours.",
      'No staff member who performs the service is free at this start: the interval is outside their working hours.',
    );
  }
  if (!startAllowed(withoutBusy(windows, facts.appointments.map(spanOf), durationMs), start)) {
    return {
      code: 'SLOT_TAKEN',
      detail: 'The staff member already has an active appointment that overlaps this interval.',
      anyStaffDetail:
        'No staff member who performs the service is free at this start: each has an active appointment that overlaps this interval.',
    };
  }
  if (!startAllowed(withoutBusy(windows, facts.blocks.map(spanOf), durationMs), start)) {
    return {
      code: 'SLOT_TAKEN',
      detail: 'The staff member is not available in this interval (time block).',
      anyStaffDetail: 'No staff member who performs the service is free at this start (time blocks, appointments).',
    };
  }
  return null;
}
