import { buildCalendarEvent } from './appointment-calendar.js';
import { composeAppointmentEmails, type AppointmentEmailFacts, type ComposedEmail } from './appointment-emails.js';

/** The .ics the worker writes from the queued event. */
const ics = (email: ComposedEmail): string => buildCalendarEvent(email.calendarEvent);

const facts: AppointmentEmailFacts = {
  kind: 'APPOINTMENT_BOOKED',
  business: { name: 'Salão Lisboa', timezone: 'Europe/Lisbon', locale: 'pt-PT', notificationEmail: 'desk@salon.example' },
  appointment: {
    status: 'CONFIRMED',
    startsAt: new Date('2035-07-10T09:30:00Z'),
    endsAt: new Date('2035-07-10T10:00:00Z'),
    serviceName: 'Corte',
  },
  staffName: 'Ana Costa',
  client: { name: 'João Silva', email: 'joao@example.com' },
  chain: { originId: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10', depth: 0 },
  mailFrom: 'no-reply@scheduling.example',
};

describe('composeAppointmentEmails', () => {
  it('writes to the client and to the business, each with the other as Reply-To, in Lisbon time and Portuguese', () => {
    const [client, business] = composeAppointmentEmails(facts);
    expect(client).toMatchObject({
      audience: 'CLIENT',
      recipient: 'joao@example.com',
      replyTo: 'desk@salon.example',
      senderName: 'Salão Lisboa',
      subject: 'Marcação registada: Corte, terça-feira, 10 de julho de 2035 às 10:30',
      calendarMethod: 'REQUEST',
    });
    expect(client.bodyText).toBe(
      'Olá João Silva,\n\nA sua marcação em Salão Lisboa está registada.\n\nCorte com Ana Costa\n' +
        'terça-feira, 10 de julho de 2035, 10:30 (Europe/Lisbon)\n\nSalão Lisboa\n',
    );
    expect(business).toMatchObject({
      audience: 'BUSINESS',
      recipient: 'desk@salon.example',
      replyTo: 'joao@example.com',
      subject: 'Nova marcação: João Silva, terça-feira, 10 de julho de 2035 às 10:30',
    });
    expect(ics(client)).toContain('UID:01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10@business-scheduling-api');
    expect(ics(client)).toContain('SEQUENCE:0');
    expect(ics(client)).toContain('STATUS:CONFIRMED');
    expect(ics(client)).toContain('ORGANIZER;CN="Salão Lisboa":MAILTO:desk@salon.example');
  });

  it('marks a PENDING booking as tentative and says it waits for confirmation', () => {
    const [client] = composeAppointmentEmails({ ...facts, appointment: { ...facts.appointment, status: 'PENDING' } });
    expect(client.bodyText).toContain('O estabelecimento irá confirmá-la em breve.');
    expect(ics(client)).toContain('STATUS:TENTATIVE');
  });

  it('tells the previous time of a reschedule, and cancels one version later with METHOD:CANCEL', () => {
    const [moved] = composeAppointmentEmails({
      ...facts,
      kind: 'APPOINTMENT_RESCHEDULED',
      previousStartsAt: new Date('2035-07-09T16:00:00Z'),
      chain: { ...facts.chain, depth: 1 },
    });
    expect(moved.subject).toBe('Marcação alterada: Corte, terça-feira, 10 de julho de 2035 às 10:30');
    expect(moved.bodyText).toContain('Antes: segunda-feira, 9 de julho de 2035, 17:00');
    expect(ics(moved)).toContain('SEQUENCE:1');

    const [cancelled] = composeAppointmentEmails({ ...facts, kind: 'APPOINTMENT_CANCELLED', chain: { ...facts.chain, depth: 1 } });
    expect(cancelled.calendarMethod).toBe('CANCEL');
    expect(ics(cancelled)).toContain('METHOD:CANCEL');
    expect(ics(cancelled)).toContain('STATUS:CANCELLED');
    expect(ics(cancelled)).toContain('SEQUENCE:2');
  });

  it('writes only to those with an address; the sender address organizes when the business has none', () => {
    expect(composeAppointmentEmails({ ...facts, client: { name: 'Maria', email: null } }).map((e) => e.audience)).toEqual(['BUSINESS']);
    const alone = composeAppointmentEmails({ ...facts, business: { ...facts.business, notificationEmail: null } });
    expect(alone.map((e) => e.audience)).toEqual(['CLIENT']);
    expect(alone[0].replyTo).toBeNull();
    expect(ics(alone[0])).toContain('MAILTO:no-reply@scheduling.example');
  });

  it('uses English words for a language without its own, with dates in the locale, and English without a locale', () => {
    const [german] = composeAppointmentEmails({ ...facts, business: { ...facts.business, locale: 'de-DE' } });
    expect(german.subject).toBe('Appointment booked: Corte, Dienstag, 10. Juli 2035 at 10:30');
    const [none] = composeAppointmentEmails({ ...facts, business: { ...facts.business, timezone: 'America/New_York', locale: null } });
    expect(none.subject).toMatch(/^Appointment booked: Corte, Tuesday, July 10, 2035 at 5:30\sAM$/u);
  });
});
