import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { RequestBody } from '#contract/contract-types.js';
import { IdempotencyRepository } from '#core/idempotency/idempotency.repository.js';
import { buildCalendarEvent } from '#core/mail/appointment-calendar.js';
import { NoticeRelayService } from '#core/notices/delivery/notice-relay.service.js';
import type { CalendarEventData } from '#database/entities/outbound-email.entity.js';
import { loadBookingFixture, KeyRing, type BookingFixture } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let db: TestSql;
let salon: BookingFixture;
let ring: KeyRing;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  salon = await loadBookingFixture({
    keys: 8,
    appointments: [
      { ref: 'done', staff: 'rui', service: 'cut', client: 'joao', startAt: '2035-01-02T10:00:00Z', status: 'COMPLETED' },
      { ref: 'noShow', staff: 'rui', service: 'cut', client: 'joao', startAt: '2035-01-02T11:00:00Z', status: 'NO_SHOW' },
      { ref: 'cancelled', staff: 'rui', service: 'cut', client: 'joao', startAt: '2035-01-02T12:00:00Z', status: 'CANCELLED' },
      { ref: 'moved', staff: 'rui', service: 'cut', client: 'joao', startAt: '2035-01-02T13:00:00Z', status: 'RESCHEDULED' },
    ],
  });
  ring = new KeyRing(salon.keys);
});
afterAll(() => api.close());

type Booking = RequestBody<'createAppointment'>;

/** A day of its own for each test, so tests never compete for a slot: 2035-02-01 plus n days. */
function day(n: number, time: string): string {
  const date = new Date(Date.UTC(2035, 1, 1 + n));
  return `${date.toISOString().slice(0, 10)}T${time}Z`;
}

function post(path: string, body: unknown, options: { key?: string; idempotencyKey?: string } = {}): Promise<ApiResponse> {
  return api.post(path, {
    key: options.key ?? ring.next(),
    body,
    headers: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() },
  });
}

const book = (body: Booking, options?: { key?: string; idempotencyKey?: string }) => post('/appointments', body, options);

function formA(startAt: string, overrides: Partial<Booking> = {}): Booking {
  return {
    staffId: salon.staff.ana,
    serviceId: salon.services.cut,
    startAt,
    client: { id: salon.clients.joao },
    ...overrides,
  } satisfies Booking;
}

let phoneSeq = 0;
function newPhone(): string {
  phoneSeq += 1;
  return `+35193${String((Date.now() % 100_000) * 100 + phoneSeq).padStart(7, '0')}`;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: string }[]>(sql, params);
  return Number(rows[0].n);
}

const noticesAbout = (id: string) =>
  db.query<{ type: string; payload: { data: Record<string, string> } }[]>(
    `SELECT type, payload FROM notices WHERE payload->'data'->>'id' = $1 ORDER BY created_at`,
    [id],
  );
/**
 * The e-mails the worker writes when it relays the outbox (no worker runs here: the relay's own
 * service does its step, and the suite runs in band, so no other test's notices are taken).
 */
const relayOutbox = () => api.app.get(NoticeRelayService).relayBatch(100_000);

const emailsOf = (appointmentId: string) =>
  relayOutbox()
    .then(() =>
      db.query<{ kind: string; audience: string; recipient: string; calendar_method: string; calendar_event: CalendarEventData }[]>(
        'SELECT kind, audience, recipient, calendar_method, calendar_event FROM outbound_emails WHERE appointment_id = $1 ORDER BY audience',
        [appointmentId],
      ),
    )
    // The .ics as the worker will write it when it sends.
    .then((rows) => rows.map((row) => ({ ...row, calendar: buildCalendarEvent(row.calendar_event) })));

describe('POST /appointments', () => {
  it('books an existing client (Form A): 201 with the contract fields, a code, appointment.created and two e-mails', async () => {
    const res = await book(formA(day(0, '10:00:00')));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      status: 'CONFIRMED',
      scheduledAt: '2035-02-01T10:00:00.000Z',
      endsAt: '2035-02-01T10:30:00.000Z',
      durationMin: 30,
      service: { id: salon.services.cut, name: 'Corte' },
      price: { cents: 2500, currency: 'EUR' },
      staff: { id: salon.staff.ana, name: 'Ana Costa' },
      client: { id: salon.clients.joao, name: 'João Silva' },
      source: 'api',
      locationId: null,
      rescheduledFromId: null,
      rescheduledToId: null,
      metadata: {},
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const [row] = await db.query<{ code: string; source: string }[]>('SELECT code, source FROM appointments WHERE id = $1', [res.body.id]);
    expect(row.code).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    expect(res.text).not.toContain(row.code);
    expect((await noticesAbout(res.body.id)).map((n) => n.type)).toEqual(['appointment.created']);
    const emails = await emailsOf(res.body.id);
    expect(emails.map((e) => [e.kind, e.audience, e.recipient, e.calendar_method])).toEqual([
      ['APPOINTMENT_BOOKED', 'BUSINESS', `desk@${salon.slug}.example`, 'REQUEST'],
      ['APPOINTMENT_BOOKED', 'CLIENT', salon.clientEmail, 'REQUEST'],
    ]);
  });

  it('accepts any offset and books PENDING when the business does not auto-confirm', async () => {
    const studio = await loadBookingFixture({ autoConfirm: false, notificationEmail: null });
    const res = await book(
      {
        staffId: studio.staff.ana,
        serviceId: studio.services.color,
        startAt: '2035-02-02T11:00:00+01:00',
        client: { id: studio.clients.maria },
      },
      { key: studio.keys[0] },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      scheduledAt: '2035-02-02T10:00:00.000Z',
      endsAt: '2035-02-02T11:00:00.000Z',
      durationMin: 60,
    });
    expect(res.body.price).toEqual({ cents: 4000, currency: 'EUR' });
    // Maria has no e-mail and the studio no notification address: nobody to write to.
    expect(await emailsOf(res.body.id)).toEqual([]);
  });

  it('books a new client (Form B): creates it in E.164 and emits client.created and appointment.created', async () => {
    const email = `new.${randomUUID().slice(0, 8)}@example.com`;
    const res = await book({
      ...formA(day(1, '10:00:00')),
      client: { name: ' Marta Sousa ', phone: '+351 936 000 111'.replace('000 111', newPhone().slice(-6)), email },
    });
    expect(res.status).toBe(201);
    const [client] = await db.query<{ id: string; name: string; phone: string; email: string; consent: boolean }[]>(
      'SELECT id, name, phone, email, consent FROM clients WHERE id = $1',
      [res.body.client.id],
    );
    expect(client).toMatchObject({ name: 'Marta Sousa', email, consent: false });
    expect(client.phone).toMatch(/^\+35193\d{7}$/);
    expect(res.body.client).toEqual({ id: client.id, name: 'Marta Sousa' });
    expect((await noticesAbout(client.id)).map((n) => n.type)).toEqual(['client.created']);
    expect((await noticesAbout(res.body.id)).map((n) => n.type)).toEqual(['appointment.created']);
  });

  it('answers Form B with an existing phone or e-mail (any case) with 409 CLIENT_EXISTS, creates nothing and changes nothing', async () => {
    const [before] = await db.query<object[]>('SELECT * FROM clients WHERE id = $1', [salon.clients.joao]);
    const noticesBefore = await count('SELECT count(*) AS n FROM notices WHERE business_id = $1', [salon.businessId]);
    const clientsBefore = await count('SELECT count(*) AS n FROM clients WHERE business_id = $1', [salon.businessId]);
    const [{ phone }] = await db.query<{ phone: string }[]>('SELECT phone FROM clients WHERE id = $1', [salon.clients.joao]);
    const startAt = day(2, '10:00:00');
    const samePhone = await book({
      ...formA(startAt),
      client: { name: 'Someone Else', phone, email: `other.${randomUUID().slice(0, 6)}@example.com` },
    });
    const sameEmail = await book({
      ...formA(startAt),
      client: { name: 'Someone Else', phone: newPhone(), email: salon.clientEmail.toUpperCase() },
    });
    for (const res of [samePhone, sameEmail]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CLIENT_EXISTS');
    }
    expect(
      await count('SELECT count(*) AS n FROM appointments WHERE business_id = $1 AND starts_at = $2', [salon.businessId, startAt]),
    ).toBe(0);
    expect(await count('SELECT count(*) AS n FROM clients WHERE business_id = $1', [salon.businessId])).toBe(clientsBefore);
    expect(await count('SELECT count(*) AS n FROM notices WHERE business_id = $1', [salon.businessId])).toBe(noticesBefore);
    const [after] = await db.query<object[]>('SELECT * FROM clients WHERE id = $1', [salon.clients.joao]);
    expect(after).toEqual(before);
  });

  it("is 404 for a staff member, service or client that is not in this business (another business's too)", async () => {
    const other = await loadBookingFixture({ keys: 1 });
    const startAt = day(3, '10:00:00');
    const cases: Booking[] = [
      formA(startAt, { staffId: randomUUID() }),
      formA(startAt, { serviceId: randomUUID() }),
      formA(startAt, { client: { id: randomUUID() } }),
      formA(startAt, { staffId: other.staff.ana }),
      formA(startAt, { serviceId: other.services.cut }),
      formA(startAt, { client: { id: other.clients.joao } }),
    ];
    for (const body of cases) {
      const res = await book(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('refuses what the business does not offer with 409 SLOT_UNAVAILABLE', async () => {
    const cases: [string, Booking][] = [
      ['in the past', formA('2020-01-06T10:00:00Z')],
      ['before the working hours (Lisbon summer: 08:00 local is 07:00Z)', formA('2035-07-03T06:45:00Z')],
      ['running past the working hours', formA(day(4, '19:45:00'))],
      ['an inactive service', formA(day(4, '10:00:00'), { serviceId: salon.services.retired })],
      [
        'a service the staff member does not perform',
        formA(day(4, '10:00:00'), { staffId: salon.staff.rui, serviceId: salon.services.color }),
      ],
      ['a staff member who takes no bookings', formA(day(4, '10:00:00'), { staffId: salon.staff.bea })],
    ];
    for (const [why, body] of cases) {
      const res = await book(body);
      expect({ why, status: res.status, code: res.body.code }).toEqual({ why, status: 409, code: 'SLOT_UNAVAILABLE' });
    }
    // 07:00Z in July is 08:00 in Lisbon: inside.
    expect((await book(formA('2035-07-03T07:00:00Z'))).status).toBe(201);
  });

  it('refuses an overlap with a time block or an active appointment with 409 SLOT_TAKEN; adjacent slots both succeed', async () => {
    const block = await book(formA('2035-01-08T15:45:00Z'));
    expect(block.status).toBe(409);
    expect(block.body.code).toBe('SLOT_TAKEN');

    const first = await book(formA(day(5, '10:00:00')));
    const second = await book(formA(day(5, '10:30:00')));
    expect([first.status, second.status]).toEqual([201, 201]);
    const overlapping = await book(formA(day(5, '10:15:00'), { client: { id: salon.clients.maria } }));
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.code).toBe('SLOT_TAKEN');
    // Another staff member is free at that time.
    expect((await book(formA(day(5, '10:15:00'), { staffId: salon.staff.rui }))).status).toBe(201);
  });

  it('gives exactly one 201 and 49 × 409 SLOT_TAKEN to 50 concurrent bookings of one slot, never a 5xx', async () => {
    const startAt = day(6, '12:00:00');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        book(formA(startAt, { client: { id: i % 2 === 0 ? salon.clients.joao : salon.clients.maria } }), {
          key: salon.keys[i % salon.keys.length],
        }),
      ),
    );
    const outcomes = responses.map((r) => (r.status === 201 ? '201' : `${r.status} ${r.body.code}`));
    expect(outcomes.filter((o) => o === '201')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '409 SLOT_TAKEN')).toHaveLength(49);
    expect(await count(`SELECT count(*) AS n FROM appointments WHERE staff_id = $1 AND starts_at = $2`, [salon.staff.ana, startAt])).toBe(
      1,
    );
  });

  it('gives 50 concurrent identical requests with one Idempotency-Key one appointment, one notice, one e-mail and identical answers', async () => {
    const studio = await loadBookingFixture({ notificationEmail: null, keys: 1 });
    const body = {
      staffId: studio.staff.ana,
      serviceId: studio.services.cut,
      startAt: day(7, '09:00:00'),
      client: { id: studio.clients.joao },
    } satisfies Booking;
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(Array.from({ length: 50 }, () => book(body, { key: studio.keys[0], idempotencyKey })));
    expect(new Set(responses.map((r) => `${r.status} ${r.text}`)).size).toBe(1);
    expect(responses[0].status).toBe(201);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
    const id: string = responses[0].body.id;
    expect(await count('SELECT count(*) AS n FROM appointments WHERE business_id = $1', [studio.businessId])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM notices WHERE business_id = $1', [studio.businessId])).toBe(1);
    await relayOutbox();
    expect(await count('SELECT count(*) AS n FROM outbound_emails WHERE appointment_id = $1', [id])).toBe(1);
  });

  it('stores a refusal for replay and answers another body under the same key with IDEMPOTENCY_KEY_REUSED', async () => {
    const key = salon.keys[0];
    const idempotencyKey = randomUUID();
    const refused = await book(formA('2020-01-06T10:00:00Z'), { key, idempotencyKey });
    const replay = await book(formA('2020-01-06T10:00:00Z'), { key, idempotencyKey });
    expect(refused.body.code).toBe('SLOT_UNAVAILABLE');
    expect(replay.text).toBe(refused.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const reused = await book(formA(day(8, '10:00:00')), { key, idempotencyKey });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('leaves nothing behind when the write fails after the service returned, and a retry with the same key then succeeds once', async () => {
    // The stored response is the write's last statement: failing it fails the transaction, after the service returned.
    const insert = jest
      .spyOn(api.app.get(IdempotencyRepository), 'storeLast')
      .mockImplementationOnce(() => Promise.reject(new Error('injected failure')));
    const email = `fail.${randomUUID().slice(0, 8)}@example.com`;
    const body = { ...formA(day(9, '10:00:00')), client: { name: 'Rita Faria', phone: newPhone(), email } } satisfies Booking;
    const key = salon.keys[1];
    const idempotencyKey = randomUUID();
    try {
      const failed = await book(body, { key, idempotencyKey });
      expect(failed.status).toBe(500);
      expect(failed.body.code).toBe('INTERNAL');
    } finally {
      insert.mockRestore();
    }
    const startAt = body.startAt;
    const nothing = async () => ({
      appointments: await count('SELECT count(*) AS n FROM appointments WHERE business_id = $1 AND starts_at = $2', [
        salon.businessId,
        startAt,
      ]),
      clients: await count('SELECT count(*) AS n FROM clients WHERE email = $1', [email]),
      notices: await count(
        `SELECT count(*) AS n FROM notices n JOIN appointments a ON a.id::text = n.payload->'data'->>'id' WHERE a.starts_at = $1 AND a.business_id = $2`,
        [startAt, salon.businessId],
      ),
      emails: await count(
        'SELECT count(*) AS n FROM outbound_emails e JOIN appointments a ON a.id = e.appointment_id WHERE a.starts_at = $1 AND a.business_id = $2',
        [startAt, salon.businessId],
      ),
    });
    await relayOutbox();
    expect(await nothing()).toEqual({ appointments: 0, clients: 0, notices: 0, emails: 0 });

    const retried = await book(body, { key, idempotencyKey });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const again = await book(body, { key, idempotencyKey });
    expect(again.text).toBe(retried.text);
    await relayOutbox();
    expect(await nothing()).toEqual({ appointments: 1, clients: 1, notices: 1, emails: 2 });
    expect(await count(`SELECT count(*) AS n FROM notices WHERE payload->'data'->>'id' = $1`, [retried.body.client.id])).toBe(1);
  });

  it('names each bad field of the body with a JSON Pointer (400 VALIDATION_FAILED), before looking anything up', async () => {
    const startAt = day(10, '10:00:00');
    const cases: [unknown, string[]][] = [
      [{ ...formA(startAt), note: 'hi' }, ['/note']],
      // Both forms at once: the closest form is B, where `id` is the property too many.
      [{ ...formA(startAt), client: { id: salon.clients.joao, name: 'Ana Maria', phone: '+351912345678' } }, ['/client/id']],
      [{ ...formA(startAt), client: { name: 'A', phone: '+351912345678' } }, ['/client/name']],
      [{ ...formA(startAt), client: { name: '  A ', phone: newPhone() } }, ['/client/name']],
      // Read in the business's country (PT) since 1.4.0 (docs/design-record.md#d23), and no number there.
      [{ ...formA(startAt), client: { name: 'Ana Maria', phone: '12 345' } }, ['/client/phone']],
      [{ ...formA(startAt), client: { name: 'Ana Maria', phone: '+351 000' } }, ['/client/phone']],
      [{ ...formA(startAt), client: { name: 'Ana Maria', phone: newPhone(), email: 'not-an-email' } }, ['/client/email']],
      [formA('2035-02-11 10:00'), ['/startAt']],
      [formA('2035-02-11T10:00:00'), ['/startAt']],
      [formA('2035-02-11T23:59:60Z'), ['/startAt']],
      [{ ...formA(startAt), staffId: 'ana' }, ['/staffId']],
      [{ staffId: salon.staff.ana, serviceId: randomUUID(), startAt }, ['/client']],
    ];
    for (const [body, paths] of cases) {
      const res = await book(body as Booking);
      const got = res.status === 400 ? (res.body.errors as { path: string }[]).map((e) => e.path) : res.body.code;
      expect({ body, status: res.status, paths: got }).toEqual({ body, status: 400, paths });
    }
  });

  it('needs appointments.write: 403 API_SCOPE_MISSING for a read-only key', async () => {
    const res = await book(formA(day(11, '10:00:00')), { key: salon.readOnlyKey });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('API_SCOPE_MISSING');
  });
});

describe('POST /appointments/{id}/reschedule', () => {
  const reschedule = (id: string, body: RequestBody<'rescheduleAppointment'>, options?: { key?: string; idempotencyKey?: string }) =>
    post(`/appointments/${id}/reschedule`, body, options);

  it('moves an appointment onto an interval overlapping its own: the old one RESCHEDULED, the new one linked and returned', async () => {
    const booked = await book(formA(day(12, '10:00:00'), { serviceId: salon.services.color }));
    expect(booked.status).toBe(201);
    const res = await reschedule(booked.body.id, { startAt: day(12, '10:30:00') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'CONFIRMED',
      scheduledAt: '2035-02-13T10:30:00.000Z',
      endsAt: '2035-02-13T11:30:00.000Z',
      durationMin: 60,
      service: booked.body.service,
      price: booked.body.price,
      staff: booked.body.staff,
      client: booked.body.client,
      source: 'api',
      rescheduledFromId: booked.body.id,
    });
    expect(res.body.id).not.toBe(booked.body.id);
    const [old] = await db.query<{ status: string }[]>('SELECT status FROM appointments WHERE id = $1', [booked.body.id]);
    expect(old.status).toBe('RESCHEDULED');
    const notices = await noticesAbout(res.body.id);
    expect(notices.map((n) => [n.type, n.payload.data.previousId])).toEqual([['appointment.rescheduled', booked.body.id]]);
    const emails = await emailsOf(res.body.id);
    expect(emails.map((e) => [e.kind, e.calendar_method])).toEqual([
      ['APPOINTMENT_RESCHEDULED', 'REQUEST'],
      ['APPOINTMENT_RESCHEDULED', 'REQUEST'],
    ]);
    // The same calendar event, one version later.
    expect(emails[0].calendar).toContain(`UID:${booked.body.id}@`);
    expect(emails[0].calendar).toContain('SEQUENCE:1');
  });

  it('keeps the old status, moves to another staff member when asked, and is 404 for an unknown one', async () => {
    const studio = await loadBookingFixture({ autoConfirm: false, keys: 1 });
    const key = studio.keys[0];
    const booked = await book(
      { staffId: studio.staff.ana, serviceId: studio.services.cut, startAt: day(13, '10:00:00'), client: { id: studio.clients.joao } },
      { key },
    );
    expect(booked.body.status).toBe('PENDING');
    expect((await reschedule(booked.body.id, { startAt: day(13, '11:00:00'), staffId: randomUUID() }, { key })).status).toBe(404);
    const moved = await reschedule(booked.body.id, { startAt: day(13, '11:00:00'), staffId: studio.staff.rui }, { key });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'PENDING', staff: { id: studio.staff.rui, name: 'Rui Alves' } });
  });

  it('applies the slot rules to the new start: SLOT_TAKEN on another appointment, SLOT_UNAVAILABLE in the past', async () => {
    const a = await book(formA(day(14, '10:00:00')));
    const b = await book(formA(day(14, '11:00:00')));
    const taken = await reschedule(a.body.id, { startAt: day(14, '10:45:00') });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('SLOT_TAKEN');
    const past = await reschedule(b.body.id, { startAt: '2020-01-06T10:00:00Z' });
    expect(past.body.code).toBe('SLOT_UNAVAILABLE');
    // Both are untouched.
    const statuses = await db.query<{ status: string }[]>('SELECT status FROM appointments WHERE id = ANY($1) ORDER BY starts_at', [
      [a.body.id, b.body.id],
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
  });

  it('is 409 APPOINTMENT_NOT_ACTIVE for a CANCELLED, RESCHEDULED, COMPLETED or NO_SHOW appointment, and 404 for an unknown or malformed id', async () => {
    for (const ref of ['cancelled', 'moved', 'done', 'noShow']) {
      const res = await reschedule(salon.appointments[ref], { startAt: day(15, '10:00:00') });
      expect({ ref, status: res.status, code: res.body.code }).toEqual({ ref, status: 409, code: 'APPOINTMENT_NOT_ACTIVE' });
    }
    expect((await reschedule(randomUUID(), { startAt: day(15, '10:00:00') })).status).toBe(404);
    expect((await reschedule('not-a-uuid', { startAt: day(15, '10:00:00') })).status).toBe(404);
  });

  it('names bad fields: 400 VALIDATION_FAILED', async () => {
    const id = randomUUID();
    const cases: [unknown, string[]][] = [
      [{ startAt: day(15, '10:00:00'), reason: 'x' }, ['/reason']],
      [{ staffId: salon.staff.ana }, ['/startAt']],
      [{ startAt: 'tomorrow' }, ['/startAt']],
    ];
    for (const [body, paths] of cases) {
      const res = await reschedule(id, body as RequestBody<'rescheduleAppointment'>);
      expect({ status: res.status, paths: (res.body.errors as { path: string }[]).map((e) => e.path) }).toEqual({ status: 400, paths });
    }
  });
});

describe('POST /appointments/{id}/cancel', () => {
  const cancel = (id: string, body: RequestBody<'cancelAppointment'>, options?: { key?: string; idempotencyKey?: string }) =>
    post(`/appointments/${id}/cancel`, body, options);

  it('cancels: 200 CANCELLED, the reason stored and never returned, appointment.cancelled and CANCEL e-mails', async () => {
    const booked = await book(formA(day(16, '10:00:00')));
    const key = salon.keys[2];
    const idempotencyKey = randomUUID();
    const reason = 'Client asked by phone (secret-reason-42)';
    const res = await cancel(booked.body.id, { reason }, { key, idempotencyKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...booked.body, status: 'CANCELLED', updatedAt: expect.stringMatching(/Z$/) });
    expect(res.text).not.toContain('secret-reason-42');
    const [row] = await db.query<{ cancellation_reason: string; cancelled_at: Date | null }[]>(
      'SELECT cancellation_reason, cancelled_at FROM appointments WHERE id = $1',
      [booked.body.id],
    );
    expect(row.cancellation_reason).toBe(reason);
    expect(row.cancelled_at).not.toBeNull();
    expect((await noticesAbout(booked.body.id)).map((n) => n.type)).toEqual(['appointment.created', 'appointment.cancelled']);
    const cancelEmails = (await emailsOf(booked.body.id)).filter((e) => e.kind === 'APPOINTMENT_CANCELLED');
    expect(cancelEmails.map((e) => e.calendar_method)).toEqual(['CANCEL', 'CANCEL']);
    expect(cancelEmails[0].calendar).toContain('METHOD:CANCEL');
    expect(cancelEmails.map((e) => e.calendar).join('')).not.toContain('secret-reason-42');

    const replay = await cancel(booked.body.id, { reason }, { key, idempotencyKey });
    expect(replay.text).toBe(res.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(
      await count(`SELECT count(*) AS n FROM notices WHERE type = 'appointment.cancelled' AND payload->'data'->>'id' = $1`, [
        booked.body.id,
      ]),
    ).toBe(1);

    // The slot is free again.
    expect((await book(formA(day(16, '10:00:00')))).status).toBe(201);
  });

  it('is 409 APPOINTMENT_NOT_ACTIVE for a CANCELLED, RESCHEDULED, COMPLETED or NO_SHOW appointment', async () => {
    for (const ref of ['cancelled', 'moved', 'done', 'noShow']) {
      const res = await cancel(salon.appointments[ref], { reason: 'Not coming' });
      expect({ ref, status: res.status, code: res.body.code }).toEqual({ ref, status: 409, code: 'APPOINTMENT_NOT_ACTIVE' });
    }
  });

  it('lets only one of two concurrent cancels through; the other sees it CANCELLED', async () => {
    const booked = await book(formA(day(17, '10:00:00')));
    const [a, b] = await Promise.all([
      cancel(booked.body.id, { reason: 'First caller' }),
      cancel(booked.body.id, { reason: 'Second caller' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('APPOINTMENT_NOT_ACTIVE');
  });

  it('refuses a short or blank reason and extra fields, naming them', async () => {
    const id = randomUUID();
    for (const [body, paths] of [
      [{ reason: 'no' }, ['/reason']],
      [{ reason: '    ' }, ['/reason']],
      [{}, ['/reason']],
      [{ reason: 'Not coming', notify: false }, ['/notify']],
    ] as [unknown, string[]][]) {
      const res = await cancel(id, body as RequestBody<'cancelAppointment'>);
      expect({ status: res.status, paths: (res.body.errors as { path: string }[]).map((e) => e.path) }).toEqual({ status: 400, paths });
    }
  });
});

describe('control characters in text (refused since 1.3.0)', () => {
  it('refuses a cancellation reason with a carriage return or another control character, and keeps line feeds and tabs', async () => {
    const booked = await book(formA(day(40, '10:00:00')));
    for (const reason of ['Client called\r\nback', 'Bell\u0007 rang', 'CR\ronly']) {
      const res = await post(`/appointments/${booked.body.id}/cancel`, { reason }, { key: salon.keys[2] });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { path: '/reason', message: 'must not contain control characters other than line feed (U+000A) and tab (U+0009)' },
      ]);
    }
    const reason = 'Client called back.\nMoved to next week:\tsee notes';
    const res = await post(`/appointments/${booked.body.id}/cancel`, { reason }, { key: salon.keys[2] });
    expect(res.status).toBe(200);
    const [row] = await db.query<{ cancellation_reason: string }[]>('SELECT cancellation_reason FROM appointments WHERE id = $1', [
      booked.body.id,
    ]);
    expect(row.cancellation_reason).toBe(reason);
  });

  it("refuses a new client's name that is not one line", async () => {
    const res = await book({ ...formA(day(41, '10:00:00')), client: { name: 'Ana\rSilva', phone: '+351 912 345 999' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({
      path: '/client/name',
      message: 'must be one line of text, without control characters (U+0000–U+001F, U+007F)',
    });
  });
});
