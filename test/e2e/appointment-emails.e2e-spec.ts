import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { INestApplicationContext } from '@nestjs/common';
import type { RequestBody } from '#contract/contract-types.js';
import { loadBookingFixture, type BookingFixture } from '../factories/booking-fixture.js';
import { E2eApi } from '../utils/e2e-api.js';
import { leafParts, type MimePart } from '../utils/mime-message.js';
import { startTestContext, testSql, type TestSql } from '../utils/test-context.js';
import { eventually } from '../utils/notice-receiver.js';
import { TestSmtpServer, type ReceivedMail } from '../utils/test-smtp-server.js';

let api: E2eApi;
let db: TestSql;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
});
afterAll(() => api.close());

const startWorker = async (overrides: Record<string, string>): Promise<INestApplicationContext> =>
  (await startTestContext({ app: 'worker', config: overrides })).app;

function write(path: string, body: unknown, key: string) {
  return api.post(path, { key, body, headers: { 'Idempotency-Key': randomUUID() } });
}

function bookingFor(fixture: BookingFixture, startAt: string): RequestBody<'createAppointment'> {
  return { staffId: fixture.staff.ana, serviceId: fixture.services.cut, startAt, client: { id: fixture.clients.joao } };
}

const part = (mail: ReceivedMail, contentType: string): MimePart => {
  const found = leafParts(mail.message).find((p) => (p.headers['content-type'] ?? '').toLowerCase().startsWith(contentType));
  if (!found) throw new Error(`No ${contentType} part in: ${JSON.stringify(mail.message.headers)}`);
  return found;
};

const sentTo = (address: string, subject: string) => (mail: ReceivedMail) =>
  mail.to.includes(address.toLowerCase()) && (mail.message.headers.subject ?? '').startsWith(subject);

describe('appointment e-mails through SMTP', () => {
  let smtp: TestSmtpServer;
  let worker: INestApplicationContext;
  let salon: BookingFixture;
  let desk: string;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    worker = await startWorker({ SMTP_URL: smtp.url });
    salon = await loadBookingFixture({ keys: 2 });
    desk = `desk@${salon.slug}.example`;
  });
  afterAll(async () => {
    await worker.close();
    await smtp.close();
  });

  it('sends booking, reschedule and cancel e-mails in the business language and Lisbon wall-clock time, with the .ics', async () => {
    // 09:30Z in July is 10:30 in Lisbon (WEST).
    const booked = await write('/appointments', bookingFor(salon, '2035-07-10T09:30:00Z'), salon.keys[0]);
    expect(booked.status).toBe(201);
    const id: string = booked.body.id;

    const toClient = await smtp.waitFor(sentTo(salon.clientEmail, 'Marcação registada'));
    expect(toClient.message.headers.subject).toBe('Marcação registada: Corte, terça-feira, 10 de julho de 2035 às 10:30');
    expect(toClient.message.headers.from).toContain('Salão Lisboa');
    expect(toClient.message.headers.from).toContain('no-reply@scheduling.example');
    expect(toClient.message.headers['reply-to']).toContain(desk);
    const text = part(toClient, 'text/plain').body;
    expect(text).toContain('Olá João Silva');
    expect(text).toContain('terça-feira, 10 de julho de 2035, 10:30 (Europe/Lisbon)');
    const invitation = part(toClient, 'text/calendar');
    expect(invitation.headers['content-type']).toMatch(/method=REQUEST/i);
    expect(invitation.body).toContain('METHOD:REQUEST');
    expect(invitation.body).toContain('DTSTART:20350710T093000Z');
    expect(invitation.body).toContain('DTEND:20350710T100000Z');
    expect(invitation.body).toContain(`UID:${id}@`);
    const attachment = part(toClient, 'application/ics');
    expect(attachment.headers['content-disposition']).toMatch(/attachment; filename=invite\.ics/);
    expect(attachment.body).toContain('DTSTART:20350710T093000Z');

    const toDesk = await smtp.waitFor(sentTo(desk, 'Nova marcação'));
    expect(toDesk.message.headers.subject).toBe('Nova marcação: João Silva, terça-feira, 10 de julho de 2035 às 10:30');
    expect(toDesk.message.headers['reply-to']).toContain(salon.clientEmail);

    // 14:00Z is 15:00 in Lisbon.
    const moved = await write(`/appointments/${id}/reschedule`, { startAt: '2035-07-10T14:00:00Z' }, salon.keys[1]);
    expect(moved.status).toBe(200);
    const movedMail = await smtp.waitFor(sentTo(salon.clientEmail, 'Marcação alterada'));
    expect(movedMail.message.headers.subject).toContain('às 15:00');
    expect(part(movedMail, 'text/plain').body).toContain('Antes: terça-feira, 10 de julho de 2035, 10:30');
    const movedEvent = part(movedMail, 'text/calendar').body;
    expect(movedEvent).toContain('METHOD:REQUEST');
    expect(movedEvent).toContain('DTSTART:20350710T140000Z');
    expect(movedEvent).toContain(`UID:${id}@`);
    expect(movedEvent).toContain('SEQUENCE:1');

    const cancelled = await write(`/appointments/${moved.body.id}/cancel`, { reason: 'Client is ill' }, salon.keys[0]);
    expect(cancelled.status).toBe(200);
    const cancelMail = await smtp.waitFor(sentTo(salon.clientEmail, 'Marcação cancelada'));
    const cancelEvent = part(cancelMail, 'text/calendar');
    expect(cancelEvent.headers['content-type']).toMatch(/method=CANCEL/i);
    expect(cancelEvent.body).toContain('METHOD:CANCEL');
    expect(cancelEvent.body).toContain('STATUS:CANCELLED');
    expect(cancelEvent.body).toContain('DTSTART:20350710T140000Z');
    expect(cancelEvent.body).toContain(`UID:${id}@`);
    expect(cancelEvent.body).toContain('SEQUENCE:2');
    expect(part(cancelMail, 'application/ics').headers['content-disposition']).toMatch(/filename=cancel\.ics/);
    expect(part(cancelMail, 'text/plain').body).not.toContain('Client is ill');
    await smtp.waitFor(sentTo(desk, 'Marcação cancelada'));

    // The sender records sent_at just after the server accepted the message: wait for it.
    const rows = await eventually(
      async () => {
        const found = await db.query<{ sent_at: Date | null; attempts: number }[]>(
          'SELECT e.sent_at, e.attempts FROM outbound_emails e JOIN appointments a ON a.id = e.appointment_id WHERE a.business_id = $1',
          [salon.businessId],
        );
        return found.length === 6 && found.every((row) => row.sent_at !== null) ? found : null;
      },
      10_000,
      'all six e-mails recorded as sent',
    );
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
  });

  it('writes in English and New York time for an en-US business in America/New_York', async () => {
    const shop = await loadBookingFixture({ keys: 1, timezone: 'America/New_York', locale: 'en-US' });
    // 13:30Z in July is 9:30 AM in New York (EDT).
    const booked = await write('/appointments', bookingFor(shop, '2035-07-10T13:30:00Z'), shop.keys[0]);
    expect(booked.status).toBe(201);
    const mail = await smtp.waitFor(sentTo(shop.clientEmail, 'Appointment booked'));
    expect(mail.message.headers.subject).toMatch(/^Appointment booked: Corte, Tuesday, July 10, 2035 at 9:30\sAM$/u);
    expect(part(mail, 'text/plain').body).toMatch(/Tuesday, July 10, 2035, 9:30\sAM \(America\/New_York\)/u);
  });

  it('does not let a refusing SMTP server affect the API answer, and retries until the mail is taken', async () => {
    smtp.refuse(salon.clientEmail, 1);
    const booked = await write('/appointments', bookingFor(salon, '2035-07-11T09:00:00Z'), salon.keys[1]);
    expect(booked.status).toBe(201);
    await smtp.waitFor(
      (mail) => mail.to.includes(salon.clientEmail.toLowerCase()) && (mail.message.headers.subject ?? '').includes('11 de julho'),
    );
    // The sender records sent_at just after the server accepted the message: wait for it.
    const row = await eventually(
      async () => {
        const [found] = await db.query<{ sent_at: Date | null; attempts: number; last_error: string | null }[]>(
          `SELECT sent_at, attempts, last_error FROM outbound_emails WHERE appointment_id = $1 AND audience = 'CLIENT'`,
          [booked.body.id],
        );
        return found?.sent_at ? found : null;
      },
      10_000,
      'the client e-mail recorded as sent',
    );
    expect(row.attempts).toBe(2);
    expect(row.last_error).toContain('451');
  });
});

describe('appointment e-mails without SMTP_URL', () => {
  let worker: INestApplicationContext;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mail-'));
    worker = await startWorker({ SMTP_URL: '', MAIL_DIR: folder });
  });
  afterAll(async () => {
    await worker.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('writes each e-mail as <id>.eml into MAIL_DIR', async () => {
    const studio = await loadBookingFixture({ keys: 1, notificationEmail: null });
    const booked = await write('/appointments', bookingFor(studio, '2035-07-12T09:00:00Z'), studio.keys[0]);
    expect(booked.status).toBe(201);
    // The worker writes the e-mail when it relays the booking's notice.
    const { id } = await eventually(async () => {
      const rows = await db.query<{ id: string }[]>('SELECT id FROM outbound_emails WHERE appointment_id = $1', [booked.body.id]);
      return rows[0];
    });
    const file = join(folder, `${id}.eml`);
    for (let waited = 0; !existsSync(file) && waited < 10_000; waited += 100) await sleep(100);
    const eml = await readFile(file, 'utf8');
    expect(eml).toContain(`To: ${studio.clientEmail}`);
    expect(eml).toContain('METHOD:REQUEST');
    expect(eml).toContain(`Message-ID: <${id}@scheduling.example>`);
  });
});
