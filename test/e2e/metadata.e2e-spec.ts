import { randomUUID } from 'node:crypto';
import { SCOPES } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * Contract 1.4.0 (docs/design-record.md#d23): `metadata` on appointments and clients, `PATCH
 * /appointments/{id}`, and `rescheduledToId`; and neither field for a caller of 1.3.0 (D22).
 */
const UNSEEN_CHARACTERS =
  'must not contain control, bidirectional or zero-width characters (U+0000–U+001F, U+007F–U+009F, U+061C, U+200B–U+200F, U+202A–U+202E, U+2060, U+2066–U+2069, U+FEFF)';

let api: E2eApi;
let db: TestSql;
let salon: SeededBusiness & { key: string; old: string; test: string; reader: string };
let other: SeededBusiness;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  const business = await seed({
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
    keys: [
      { ref: 'owner', member: 'owner', name: 'Current', scopes: SCOPES },
      { ref: 'old', member: 'owner', name: 'Pinned to 1.3.0', scopes: SCOPES, apiVersion: '1.3.0' },
      { ref: 'test', member: 'owner', name: 'Test', scopes: SCOPES, mode: 'test' },
      { ref: 'reader', member: 'owner', name: 'Reader', scopes: ['appointments.read'] },
    ],
  });
  salon = {
    ...business,
    key: business.keys.owner.key,
    old: business.keys.old.key,
    test: business.keys.test.key,
    reader: business.keys.reader.key,
  };
  other = await seed({
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
    appointments: [{ ref: 'a', staff: 'ana', service: 'cut', client: 'joao', startAt: '2036-01-07T09:00:00Z' }],
  });
});
afterAll(() => api.close());

let dayCount = 0;
/** A start on a day of its own, so that no two bookings of the file compete for a slot. */
function nextStart(): string {
  dayCount += 1;
  return new Date(Date.UTC(2036, 2, 1 + dayCount, 10)).toISOString();
}

function newPhone(): string {
  return `+35191${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
}

const write = (method: 'POST' | 'PATCH', path: string, body: unknown, key = salon.key, idempotencyKey: string | null = randomUUID()) =>
  api.call(method, path, { key, body, headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey } });

const book = (body: Record<string, unknown>, key = salon.key): Promise<ApiResponse> =>
  write('POST', '/appointments', { staffId: salon.staff.ana, serviceId: salon.services.cut, startAt: nextStart(), ...body }, key);

const patch = (id: string, body: unknown, options: { key?: string; idempotencyKey?: string | null } = {}) =>
  write('PATCH', `/appointments/${id}`, body, options.key ?? salon.key, options.idempotencyKey ?? null);

const noticeCount = async (id: string): Promise<number> =>
  Number((await db.query<{ n: string }[]>(`SELECT count(*) AS n FROM notices WHERE payload->'data'->>'id' = $1`, [id]))[0].n);

describe('metadata given on creation', () => {
  it("is the appointment's on a Form A booking, `{}` when none, and rescheduledToId is null", async () => {
    const booked = await book({ client: { id: salon.clients.joao }, metadata: { crmId: 'A-1042', 'a.b_c-9': '' } });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ metadata: { crmId: 'A-1042', 'a.b_c-9': '' }, rescheduledToId: null });
    const read = await api.get(`/appointments/${booked.body.id}`, { key: salon.key });
    expect(read.body).toEqual(booked.body);

    const plain = await book({ client: { id: salon.clients.joao } });
    expect(plain.body).toMatchObject({ metadata: {}, rescheduledToId: null });
    // The existing client is never changed: Form A takes no client metadata.
    const changing = await book({ client: { id: salon.clients.joao, metadata: { crmId: 'x' } } });
    expect(changing.status).toBe(400);
    expect((await api.get(`/clients/${salon.clients.joao}`, { key: salon.key })).body.metadata).toEqual({});
  });

  it("is the appointment's at the top and the new client's in client.metadata on a Form B booking", async () => {
    const booked = await book({
      client: { name: 'Marta Sousa', phone: newPhone(), metadata: { crmId: 'C-77' } },
      metadata: { crmId: 'A-2001' },
    });
    expect(booked.status).toBe(201);
    expect(booked.body.metadata).toEqual({ crmId: 'A-2001' });
    const client = await api.get(`/clients/${booked.body.client.id}`, { key: salon.key });
    expect(client.body.metadata).toEqual({ crmId: 'C-77' });

    const withoutClientMetadata = await book({ client: { name: 'Rita Lopes', phone: newPhone() }, metadata: { crmId: 'A-2002' } });
    expect((await api.get(`/clients/${withoutClientMetadata.body.client.id}`, { key: salon.key })).body.metadata).toEqual({});
    // Notices name ids, never the partner's data.
    const [payloads] = [
      await db.query<{ payload: unknown }[]>(`SELECT payload FROM notices WHERE payload->'data'->>'id' = ANY($1::text[])`, [
        [booked.body.id, booked.body.client.id],
      ]),
    ];
    expect(payloads).toHaveLength(2);
    expect(JSON.stringify(payloads)).not.toMatch(/C-77|A-2001|metadata/);
  });

  it("is the client's on POST /clients, `{}` when none", async () => {
    const created = await write('POST', '/clients', { name: 'Ana Silva', phone: newPhone(), consent: true, metadata: { source: 'web' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ source: 'web' });
    expect((await api.get(`/clients/${created.body.id}`, { key: salon.key })).body).toEqual(created.body);
    const plain = await write('POST', '/clients', { name: 'Rui Lima', phone: newPhone(), consent: true });
    expect(plain.body.metadata).toEqual({});
    const listed = await api.get('/clients', { key: salon.key, query: { limit: 100 } });
    expect(listed.body.data.find((c: { id: string }) => c.id === created.body.id).metadata).toEqual({ source: 'web' });
  });

  it('is refused, naming the field, on a booking and a client creation', async () => {
    const booking = await book({ client: { name: 'Bad Meta', phone: newPhone(), metadata: { 'no spaces': 'x' } }, metadata: { n: 1 } });
    expect(booking.status).toBe(400);
    expect(booking.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/client/metadata/no spaces', '/metadata/n']);
    const client = await write('POST', '/clients', {
      name: 'Bad Meta',
      phone: newPhone(),
      consent: true,
      metadata: { v: 'x'.repeat(501) },
    });
    expect(client.status).toBe(400);
    expect(client.body.errors).toEqual([{ path: '/metadata/v', message: 'must NOT have more than 500 characters' }]);

    const hidden = await write('POST', '/clients', { name: 'Bad Meta', phone: newPhone(), consent: true, metadata: { v: 'a\u202Eb' } });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: '/metadata/v', message: UNSEEN_CHARACTERS }] });
    const formB = await book({ client: { name: 'Bad Meta', phone: newPhone(), metadata: { v: 'a\u200Bb' } }, metadata: { w: '\uFEFF' } });
    expect(formB.status).toBe(400);
    expect(formB.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/client/metadata/v', '/metadata/w']);
  });
});

describe('PATCH /appointments/{id}', () => {
  it('replaces the metadata as a whole, in any status, with no notice and no other change', async () => {
    const booked = await book({ client: { id: salon.clients.joao }, metadata: { a: '1', b: '2' } });
    const notices = await noticeCount(booked.body.id);
    const replaced = await patch(booked.body.id, { metadata: { c: '3' } });
    expect(replaced.status).toBe(200);
    expect(replaced.headers['idempotent-replayed']).toBeUndefined();
    const { metadata, updatedAt, ...rest } = replaced.body;
    expect(metadata).toEqual({ c: '3' });
    expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(booked.body.updatedAt));
    const { metadata: _m, updatedAt: _u, ...before } = booked.body;
    expect(rest).toEqual(before);
    expect((await api.get(`/appointments/${booked.body.id}`, { key: salon.key })).body).toEqual(replaced.body);
    expect(await noticeCount(booked.body.id)).toBe(notices);

    const cancelled = await write('POST', `/appointments/${booked.body.id}/cancel`, { reason: 'Client asked' });
    expect(cancelled.body.metadata).toEqual({ c: '3' });
    const cleared = await patch(booked.body.id, { metadata: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ status: 'CANCELLED', metadata: {} });
  });

  it.each([
    ['21 keys', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])), '/metadata', 'must have at most 20 keys'],
    [
      'a key with a space',
      { 'bad key': 'v' },
      '/metadata/bad key',
      'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -',
    ],
    ['an empty key', { '': 'v' }, '/metadata/', 'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -'],
    [
      'a 41-character key',
      { [`k${'x'.repeat(40)}`]: 'v' },
      `/metadata/k${'x'.repeat(40)}`,
      'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -',
    ],
    ['a 501-character value', { v: 'x'.repeat(501) }, '/metadata/v', 'must NOT have more than 500 characters'],
    ['a control character', { v: 'a\u0007b' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a C1 control character', { v: 'a\u0085b' }, '/metadata/v', UNSEEN_CHARACTERS],
    // Text that shows a reader other than what is stored (docs/design-record.md#d23).
    ['a right-to-left override', { v: 'invoice\u202Efdp.exe' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a bidirectional isolate', { v: 'a\u2067b\u2069' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a right-to-left mark', { v: 'a\u200Fb' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['an Arabic letter mark', { v: 'a\u061Cb' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a zero-width space', { v: 'A-10\u200B42' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a zero-width joiner', { v: 'a\u200Db' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a word joiner', { v: 'a\u2060b' }, '/metadata/v', UNSEEN_CHARACTERS],
    ['a byte order mark', { v: '\uFEFFA-1042' }, '/metadata/v', UNSEEN_CHARACTERS],
    [
      'a zero-width space in a key',
      { 'crm\u200BId': 'v' },
      '/metadata/crm\u200BId',
      'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -',
    ],
    [
      'an override in a key',
      { 'crm\u202EId': 'v' },
      '/metadata/crm\u202EId',
      'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -',
    ],
    ['a number', { v: 3 }, '/metadata/v', 'must be string'],
    ['null', null, '/metadata', 'must be object'],
  ])('answers 400 VALIDATION_FAILED for %s, naming it', async (_, metadata, path, message) => {
    const booked = await book({ client: { id: salon.clients.joao }, metadata: { keep: 'me' } });
    const refused = await patch(booked.body.id, { metadata }, { idempotencyKey: randomUUID() });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path, message }] });
    expect((await api.get(`/appointments/${booked.body.id}`, { key: salon.key })).body.metadata).toEqual({ keep: 'me' });
  });

  it('answers 400 for a body without metadata or with another field, and accepts 20 keys of the longest', async () => {
    const booked = await book({ client: { id: salon.clients.joao } });
    expect((await patch(booked.body.id, {})).body.errors).toEqual([{ path: '/metadata', message: 'is required' }]);
    expect((await patch(booked.body.id, { metadata: {}, status: 'CANCELLED' })).body.errors).toEqual([
      { path: '/status', message: 'is not an allowed property' },
    ]);
    const widest = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, '0')}${'k'.repeat(38)}`, 'v'.repeat(500)]),
    );
    const accepted = await patch(booked.body.id, { metadata: widest });
    expect(accepted.status).toBe(200);
    expect(accepted.body.metadata).toEqual(widest);
  });

  it("answers 404 for another business's appointment and an unknown id, and 403 without appointments.write", async () => {
    expect((await patch(other.appointments.a, { metadata: { a: '1' } })).status).toBe(404);
    expect((await patch(randomUUID(), { metadata: { a: '1' } }, { idempotencyKey: randomUUID() })).status).toBe(404);
    const booked = await book({ client: { id: salon.clients.joao } });
    const forbidden = await patch(booked.body.id, { metadata: { a: '1' } }, { key: salon.reader });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'API_SCOPE_MISSING']);
  });

  it('replays with an Idempotency-Key, refuses the key with another body, and checks the key', async () => {
    const booked = await book({ client: { id: salon.clients.joao } });
    const idempotencyKey = randomUUID();
    const first = await patch(booked.body.id, { metadata: { step: '1' } }, { idempotencyKey });
    await patch(booked.body.id, { metadata: { step: '2' } });
    const replay = await patch(booked.body.id, { metadata: { step: '1' } }, { idempotencyKey });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    // The replay did nothing again: the later write stands.
    expect((await api.get(`/appointments/${booked.body.id}`, { key: salon.key })).body.metadata).toEqual({ step: '2' });
    const reused = await patch(booked.body.id, { metadata: { step: '3' } }, { idempotencyKey });
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    const invalid = await patch(booked.body.id, { metadata: {} }, { idempotencyKey: 'short' });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_INVALID']);
    // Without a key, the same request twice simply runs twice, to the same outcome.
    const again = [await patch(booked.body.id, { metadata: { step: '4' } }), await patch(booked.body.id, { metadata: { step: '4' } })];
    expect(again.map((r) => [r.status, r.body.metadata, r.headers['idempotent-replayed']])).toEqual([
      [200, { step: '4' }, undefined],
      [200, { step: '4' }, undefined],
    ]);
  });

  it("works with a test key on the sandbox's appointments, and not on the live business's", async () => {
    const sandbox = salon.sandbox!;
    const booked = await write(
      'POST',
      '/appointments',
      {
        staffId: sandbox.staff.ana,
        serviceId: sandbox.services.cut,
        startAt: nextStart(),
        client: { name: 'Cliente Teste', phone: newPhone() },
        metadata: { t: '1' },
      },
      salon.test,
    );
    expect([booked.status, booked.body.metadata]).toEqual([201, { t: '1' }]);
    const changed = await patch(booked.body.id, { metadata: { t: '2' } }, { key: salon.test });
    expect([changed.status, changed.body.metadata]).toEqual([200, { t: '2' }]);
    const live = await book({ client: { id: salon.clients.joao } });
    expect((await patch(live.body.id, { metadata: { t: '3' } }, { key: salon.test })).status).toBe(404);
  });
});

describe('rescheduledToId and a reschedule', () => {
  it('carries the metadata to the new appointment and names it on the old one, in reads and lists', async () => {
    const booked = await book({ client: { id: salon.clients.joao }, metadata: { crmId: 'A-9' } });
    const moved = await write('POST', `/appointments/${booked.body.id}/reschedule`, { startAt: nextStart() });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ rescheduledFromId: booked.body.id, rescheduledToId: null, metadata: { crmId: 'A-9' } });
    const old = await api.get(`/appointments/${booked.body.id}`, { key: salon.key });
    expect(old.body).toMatchObject({ status: 'RESCHEDULED', rescheduledToId: moved.body.id, metadata: { crmId: 'A-9' } });
    const list = await api.get('/appointments', {
      key: salon.key,
      query: { from: booked.body.scheduledAt, to: new Date(Date.parse(booked.body.scheduledAt) + 1000).toISOString() },
    });
    expect(list.body.data.map((a: { id: string; rescheduledToId: string | null }) => [a.id, a.rescheduledToId])).toEqual([
      [booked.body.id, moved.body.id],
    ]);
    // Changing the new one's metadata leaves the old one's.
    await patch(moved.body.id, { metadata: { crmId: 'A-10' } });
    expect((await api.get(`/appointments/${booked.body.id}`, { key: salon.key })).body.metadata).toEqual({ crmId: 'A-9' });
  });
});

describe('a caller of 1.3.0', () => {
  it('sees neither field, by its key pin or by Api-Version, on appointments and clients', async () => {
    const booked = await book({ client: { name: 'Old Pin', phone: newPhone(), metadata: { c: '1' } }, metadata: { a: '1' } });
    const moved = await write('POST', `/appointments/${booked.body.id}/reschedule`, { startAt: nextStart() });
    const reads: ApiResponse[] = [
      await api.get(`/appointments/${booked.body.id}`, { key: salon.old }),
      await api.get(`/appointments/${booked.body.id}`, { key: salon.key, headers: { 'Api-Version': '1.3.0' } }),
      await api.get(`/appointments/${moved.body.id}`, { key: salon.old }),
    ];
    for (const read of reads) {
      expect(read.headers['api-version']).toBe('1.3.0');
      expect(read.body.id).toBeDefined();
      expect(read.body).not.toHaveProperty('metadata');
      expect(read.body).not.toHaveProperty('rescheduledToId');
    }
    const list = await api.get('/appointments', {
      key: salon.old,
      query: { from: booked.body.scheduledAt, to: new Date(Date.parse(booked.body.scheduledAt) + 1000).toISOString() },
    });
    expect(list.body.data).toHaveLength(1);
    expect(Object.keys(list.body.data[0])).not.toEqual(expect.arrayContaining(['metadata']));
    expect(list.body.data[0]).not.toHaveProperty('rescheduledToId');
    for (const client of [
      await api.get(`/clients/${booked.body.client.id}`, { key: salon.old }),
      await api.get(`/clients/${booked.body.client.id}`, { key: salon.key, headers: { 'Api-Version': '1.3.0' } }),
    ]) {
      expect(client.body.name).toBe('Old Pin');
      expect(client.body).not.toHaveProperty('metadata');
    }
    const answered = await api.post('/appointments', {
      key: salon.old,
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: nextStart(),
        client: { id: salon.clients.joao },
        metadata: { a: '2' },
      },
    });
    expect(answered.status).toBe(201);
    expect(answered.body).not.toHaveProperty('metadata');
    // Stored all the same: a 1.4.0 read shows it.
    expect((await api.get(`/appointments/${answered.body.id}`, { key: salon.key })).body.metadata).toEqual({ a: '2' });
    // PATCH came with 1.4.0: it answers in 1.4.0's shape whatever the pin (D22).
    const patched = await patch(answered.body.id, { metadata: { a: '3' } }, { key: salon.old });
    expect([patched.status, patched.headers['api-version'], patched.body.metadata]).toEqual([200, '1.4.0', { a: '3' }]);
  });
});
