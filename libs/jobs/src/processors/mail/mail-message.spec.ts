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

describe('toMailMessage with control characters in stored text (rows written before 1.3.0 refused them)', () => {
  const hostileEvent = {
    method: 'REQUEST' as const,
    uid: 'origin@business-scheduling-api',
    sequence: 0,
    start: '2035-07-10T09:30:00.000Z',
    end: '2035-07-10T10:00:00.000Z',
    status: 'CONFIRMED' as const,
    title: 'Corte · Ana\rATTENDEE:mailto:evil@example.com',
    description: 'Corte com Ana\r\nsegunda linha\u0000',
    organizer: { name: 'Salão\rLisboa', email: 'desk@salon.example' },
    attendee: { name: 'Ana\rX-INJECTED:1', email: 'ana@example.com' },
  };

  /** The invitation's lines, unfolded: none may hold a CR or LF of its own. */
  const lines = (content: string) => content.replace(/\r\n[ \t]/g, '').split('\r\n');

  it('never lets a lone CR start a line of the invitation: SUMMARY and CN stay one line each', () => {
    const message = toMailMessage(queued({ calendar: null, calendarEvent: hostileEvent }), 'no-reply@scheduling.example');
    const content = String((message.icalEvent as { content: string }).content);
    for (const line of lines(content)) expect(line).not.toMatch(/[\r\n]/);
    expect(lines(content).some((line) => line.startsWith('X-INJECTED') || line.startsWith('ATTENDEE:mailto:evil'))).toBe(false);
    expect(lines(content).find((line) => line.startsWith('SUMMARY'))).toContain('Ana ATTENDEE');
  });

  it('makes the sender name and subject one line and keeps the body to LF and tab', () => {
    const message = toMailMessage(
      Object.assign(queued({ calendar: null, calendarEvent: hostileEvent }), {
        senderName: 'Salão\r\nBcc: x@example.com',
        subject: 'Marcação\rregistada',
        bodyText: 'Olá\r\nAna\u0007\n',
      }),
      'no-reply@scheduling.example',
    );
    expect((message.from as { name: string }).name).toBe('Salão Bcc: x@example.com');
    expect(message.subject).toBe('Marcação registada');
    expect(message.text).toBe('Olá\nAna\n');
  });

  it('turns stray line breaks of an invitation stored by an older version into spaces', () => {
    const stored = 'BEGIN:VCALENDAR\r\nSUMMARY:Corte · Ana\rX-INJECTED:1\r\nEND:VCALENDAR\r\n';
    const message = toMailMessage(queued({ calendar: stored, calendarEvent: null }), 'no-reply@scheduling.example');
    expect(lines(String((message.icalEvent as { content: string }).content))).toEqual([
      'BEGIN:VCALENDAR',
      'SUMMARY:Corte · Ana X-INJECTED:1',
      'END:VCALENDAR',
      '',
    ]);
  });
});
