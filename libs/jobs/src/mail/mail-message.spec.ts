import { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';
import { toMailMessage } from './mail-message.js';

const queued = (calendar: Pick<OutboundEmailEntity, 'calendar' | 'calendarEvent'>): OutboundEmailEntity =>
  Object.assign(new OutboundEmailEntity(), {
    id: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10',
    recipient: 'joao@example.com',
    senderName: 'Salão Lisboa',
    replyTo: null,
    subject: 'Marcação registada',
    bodyText: 'Olá\n',
    calendarMethod: 'REQUEST',
    ...calendar,
  });

describe('toMailMessage', () => {
  it('writes the .ics from the queued calendar event', () => {
    const message = toMailMessage(
      queued({
        calendar: null,
        calendarEvent: {
          method: 'REQUEST',
          uid: 'origin@business-scheduling-api',
          sequence: 2,
          start: '2035-07-10T09:30:00.000Z',
          end: '2035-07-10T10:00:00.000Z',
          status: 'CONFIRMED',
          title: 'Corte · Salão Lisboa',
          description: 'Corte com Ana',
          organizer: { name: 'Salão Lisboa', email: 'desk@salon.example' },
          attendee: { name: 'João', email: 'joao@example.com' },
        },
      }),
      'no-reply@scheduling.example',
    );
    const content = String((message.icalEvent as { content: string }).content).replace(/\r\n[ \t]/g, '');
    for (const line of ['METHOD:REQUEST', 'UID:origin@business-scheduling-api', 'SEQUENCE:2', 'DTSTART:20350710T093000Z']) {
      expect(content).toContain(`${line}\r\n`);
    }
    expect(message.messageId).toBe('<01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10@scheduling.example>');
  });

  it('sends the rendered .ics of a row queued before calendar events were stored', () => {
    const message = toMailMessage(
      queued({ calendar: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', calendarEvent: null }),
      'no-reply@scheduling.example',
    );
    expect((message.icalEvent as { content: string }).content).toBe('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
  });
});
