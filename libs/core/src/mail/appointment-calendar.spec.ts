import type { CalendarEventData } from '#database/entities/outbound-email.entity.js';
import { buildCalendarEvent } from './appointment-calendar.js';

/** RFC 5545 folds lines at 75 octets; a continuation line starts with a space or a tab. */
const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, '');

const input: CalendarEventData = {
  method: 'REQUEST',
  uid: 'origin@business-scheduling-api',
  sequence: 0,
  start: '2030-01-07T09:00:00.000Z',
  end: '2030-01-07T09:30:00.000Z',
  status: 'CONFIRMED',
  title: 'Corte · Salão "Lisboa"',
  description: 'Corte com Ana',
  organizer: { name: 'Salão "Lisboa"', email: 'desk@salon.example' },
  attendee: { name: 'João', email: 'joao@example.com' },
};

describe('buildCalendarEvent', () => {
  it('writes an iTIP REQUEST in UTC with a stable UID and sequence', () => {
    const ics = unfolded(buildCalendarEvent(input));
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    for (const line of [
      'METHOD:REQUEST',
      'UID:origin@business-scheduling-api',
      'SEQUENCE:0',
      'DTSTART:20300107T090000Z',
      'DTEND:20300107T093000Z',
    ]) {
      expect(ics).toContain(`${line}\r\n`);
    }
    expect(ics).toContain('ATTENDEE;');
    expect(ics).toContain('mailto:joao@example.com');
  });

  it('keeps double quotes out of parameter values and leaves out an attendee without an address', () => {
    const ics = unfolded(buildCalendarEvent({ ...input, method: 'CANCEL', status: 'CANCELLED', attendee: { name: 'Maria', email: null } }));
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics).toContain(`ORGANIZER;CN="Salão 'Lisboa'":MAILTO:desk@salon.example`);
    expect(ics).not.toContain('ATTENDEE');
  });
});
