import { createEvent, type EventStatus } from 'ics';
import type { CalendarMethod } from '#database/entities/outbound-email.entity.js';

export interface CalendarEventInput {
  method: CalendarMethod;
  /**
   * The same for every appointment of one reschedule chain, so that a calendar moves (or
   * removes) the event it already has instead of adding another.
   */
  uid: string;
  /** Grows with every change of the event: the reschedule count, plus one for a cancel. */
  sequence: number;
  start: Date;
  end: Date;
  status: EventStatus;
  title: string;
  description: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string | null };
}

/** RFC 5545 parameter values (CN) cannot hold a double quote, not even escaped. */
const parameterSafe = (name: string): string => name.replace(/"/g, "'");

/** The .ics invitation (RFC 5545, METHOD REQUEST or CANCEL) attached to an appointment e-mail. */
export function buildCalendarEvent(input: CalendarEventInput): string {
  const { error, value } = createEvent({
    productId: 'business-scheduling-api',
    method: input.method,
    uid: input.uid,
    sequence: input.sequence,
    // Written in UTC: exact whatever calendar reads it, with no VTIMEZONE block to keep right.
    start: input.start.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: input.end.getTime(),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: input.status,
    title: input.title,
    description: input.description,
    organizer: { name: parameterSafe(input.organizer.name), email: input.organizer.email },
    attendees: input.attendee.email
      ? [{ name: parameterSafe(input.attendee.name), email: input.attendee.email, rsvp: false, partstat: 'ACCEPTED', role: 'REQ-PARTICIPANT' }]
      : [],
  });
  if (error || value === null) throw error ?? new Error('The calendar event could not be built.');
  return value;
}
