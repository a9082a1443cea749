import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { RequestBody } from '#contract/contract-types.js';
import { loadBookingFixture, type BookingFixture } from '../factories/booking-fixture.js';
import { E2eApi } from '../utils/e2e-api.js';
import { eventually } from '../utils/notice-receiver.js';
import { startTestContext, testSql, type TestSql } from '../utils/test-context.js';
import { TestSmtpServer, type ReceivedMail } from '../utils/test-smtp-server.js';

/**
 * `notifyClient` (1.4.0, docs/design-record.md#d23) on booking, reschedule and cancel: false sends the
 * client no e-mail for that write, the business's still goes; the default sends both (D10).
 */
let api: E2eApi;
let db: TestSql;
let smtp: TestSmtpServer;
let worker: INestApplicationContext;
let salon: BookingFixture;
let desk: string;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  smtp = await TestSmtpServer.start();
  worker = (await startTestContext({ app: 'worker', config: { SMTP_URL: smtp.url } })).app;
  salon = await loadBookingFixture({ keys: 1 });
  desk = `desk@${salon.slug}.example`;
});
afterAll(async () => {
  await worker.close();
  await smtp.close();
  await api.close();
});

function write(path: string, body: unknown) {
  return api.post(path, { key: salon.keys[0], body, headers: { 'Idempotency-Key': randomUUID() } });
}

function booking(startAt: string, notifyClient?: boolean): RequestBody<'createAppointment'> {
  return {
    staffId: salon.staff.ana,
    serviceId: salon.services.cut,
    startAt,
    client: { id: salon.clients.joao },
    ...(notifyClient === undefined ? {} : { notifyClient }),
  };
}

/** The mails of one appointment's change: its subject names the local day. */
const to = (address: string, subject: string, day: string) => (mail: ReceivedMail) =>
  mail.to.includes(address.toLowerCase()) &&
  (mail.message.headers.subject ?? '').startsWith(subject) &&
  (mail.message.headers.subject ?? '').includes(day);

/**
 * The audiences of the e-mail rows of one change. The relay writes a change's e-mails in one
 * transaction, so once the business's is there, the client's would be too: no waiting on absence.
 */
async function audiences(appointmentId: string, kind: string): Promise<string[]> {
  const rows = await db.query<{ audience: string }[]>(
    'SELECT audience FROM outbound_emails WHERE appointment_id = $1 AND kind = $2 ORDER BY audience',
    [appointmentId, kind],
  );
  return rows.map((row) => row.audience);
}

describe('notifyClient', () => {
  it('false on a booking, a reschedule and a cancel: the business is e-mailed, the client is not', async () => {
    const booked = await write('/appointments', booking('2035-08-06T09:00:00Z', false));
    expect(booked.status).toBe(201);
    await smtp.waitFor(to(desk, 'Nova marcação', '6 de agosto'));
    expect(await audiences(booked.body.id, 'APPOINTMENT_BOOKED')).toEqual(['BUSINESS']);

    const moved = await write(`/appointments/${booked.body.id}/reschedule`, { startAt: '2035-08-07T09:00:00Z', notifyClient: false });
    expect(moved.status).toBe(200);
    await smtp.waitFor(to(desk, 'Marcação alterada', '7 de agosto'));
    expect(await audiences(moved.body.id, 'APPOINTMENT_RESCHEDULED')).toEqual(['BUSINESS']);

    const cancelled = await write(`/appointments/${moved.body.id}/cancel`, { reason: 'Closed that day', notifyClient: false });
    expect(cancelled.status).toBe(200);
    await smtp.waitFor(to(desk, 'Marcação cancelada', '7 de agosto'));
    expect(await audiences(moved.body.id, 'APPOINTMENT_CANCELLED')).toEqual(['BUSINESS']);

    // Nothing reached the client for any of the three.
    expect(
      smtp.received.filter(
        (mail) => mail.to.includes(salon.clientEmail.toLowerCase()) && /agosto/.test(mail.message.headers.subject ?? ''),
      ),
    ).toEqual([]);
  });

  it('by default (and true) the client and the business are both e-mailed', async () => {
    const booked = await write('/appointments', booking('2035-09-04T09:00:00Z'));
    expect(booked.status).toBe(201);
    await smtp.waitFor(to(salon.clientEmail, 'Marcação registada', 'setembro'));
    await smtp.waitFor(to(desk, 'Nova marcação', 'setembro'));
    expect(await audiences(booked.body.id, 'APPOINTMENT_BOOKED')).toEqual(['BUSINESS', 'CLIENT']);

    const moved = await write(`/appointments/${booked.body.id}/reschedule`, { startAt: '2035-09-05T09:00:00Z', notifyClient: true });
    expect(moved.status).toBe(200);
    await smtp.waitFor(to(salon.clientEmail, 'Marcação alterada', 'setembro'));
    await smtp.waitFor(to(desk, 'Marcação alterada', 'setembro'));

    const cancelled = await write(`/appointments/${moved.body.id}/cancel`, { reason: 'Client is ill' });
    expect(cancelled.status).toBe(200);
    await smtp.waitFor(to(salon.clientEmail, 'Marcação cancelada', 'setembro'));
    await smtp.waitFor(to(desk, 'Marcação cancelada', 'setembro'));
    const sent = await eventually(
      async () => {
        const rows = await db.query<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM outbound_emails WHERE appointment_id = ANY($1::uuid[])',
          [[booked.body.id, moved.body.id]],
        );
        return rows[0].n === 6 ? rows[0].n : null;
      },
      10_000,
      'six e-mail rows',
    );
    expect(sent).toBe(6);
  });

  it('is a boolean: anything else is 400 VALIDATION_FAILED naming /notifyClient', async () => {
    const booked = await write('/appointments', booking('2035-10-02T09:00:00Z', false));
    expect(booked.status).toBe(201);
    for (const [path, body] of [
      ['/appointments', { ...booking('2035-10-03T09:00:00Z'), notifyClient: 'no' }],
      [`/appointments/${booked.body.id}/reschedule`, { startAt: '2035-10-04T09:00:00Z', notifyClient: 0 }],
      [`/appointments/${booked.body.id}/cancel`, { reason: 'Closed that day', notifyClient: null }],
    ] as const) {
      const res = await write(path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('/notifyClient');
    }
  });
});
