import { randomUUID } from 'node:crypto';
import { loadContract, operationsById } from '#contract/openapi-document.js';
import { loadFrozenContract } from '#contract/served-contract.js';
import { API_VERSIONS } from '#contract/versions/api-versions.js';
import { SCOPES, type Scope } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse, type CallMethod, type CallOptions } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

/**
 * docs/design-record.md#d22: a key pinned to 1.2.0 is answered byte for byte what a 1.3.0 key is
 * (1.3.0 changed no answer of 1.2.0, D13), and so is a 1.4.0 key that asks for 1.2.0 with the
 * Api-Version header; every answer says its version in Api-Version; a value that is not a
 * published version, or the header twice, is 400 VALIDATION_FAILED at /header/Api-Version; an
 * operation added in 1.3.0 answers a 1.2.0 key in 1.3.0. (Every answer here is also checked by the
 * harness against the document of its Api-Version and, shaped down, every earlier one's.)
 */

let api: E2eApi;
let salon: SeededBusiness;
/**
 * The keys: pinned to 1.2.0, to 1.3.0, and the current version's; same member, name and scopes,
 * the scopes 1.2.0 published (GET /me lists a key's scopes as they are). The staff keys hold
 * every scope, for the operations added in 1.3.0.
 */
const keys = { v12: '', v13: '', v14: '', v15: '', staff12: '', staff13: '', staff14: '' };
/** Every operation of the current document, with its path template. */
const CURRENT_OPERATIONS = [...operationsById(loadContract().document).values()].map(({ method, path }) => ({
  method: method.toUpperCase() as CallMethod,
  path,
}));
const SCOPES_OF_1_2_0 = (loadFrozenContract().document.components.schemas as { Scope: { enum: Scope[] } }).Scope.enum;

beforeAll(async () => {
  api = await E2eApi.start();
  const key = (ref: string, apiVersion?: '1.2.0' | '1.3.0' | '1.4.0', scopes = SCOPES_OF_1_2_0) => ({
    ref,
    member: 'owner',
    name: 'Partner',
    scopes,
    ...(apiVersion ? { apiVersion } : {}),
  });
  salon = await seed({
    services: [
      { ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500, category: 'Hair' },
      { ref: 'colour', name: 'Colouring', durationMin: 60, priceCents: 4000 },
    ],
    staff: [{ ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK }],
    clients: [
      { ref: 'joao', name: 'João Silva', consent: true, email: 'joao@example.com' },
      { ref: 'maria', name: 'Maria Santos', consent: true },
    ],
    appointments: [
      { ref: 'a', staff: 'ana', service: 'cut', client: 'joao', startAt: '2036-01-07T09:00:00Z' },
      { ref: 'b', staff: 'ana', service: 'colour', client: 'maria', startAt: '2036-01-07T10:00:00Z', status: 'CANCELLED' },
    ],
    payments: [
      {
        ref: 'p',
        appointment: 'a',
        channel: 'IN_PERSON',
        method: 'CARD',
        status: 'PAID',
        amountCents: 2500,
        paidAt: '2036-01-07T09:30:00Z',
      },
    ],
    sales: [
      {
        ref: 's',
        number: 1,
        status: 'COMPLETED',
        client: 'joao',
        appointment: 'a',
        items: [
          { type: 'SERVICE', name: 'Haircut', service: 'cut', quantity: 1, unitPriceCents: 2500 },
          { type: 'PRODUCT', name: 'Shampoo', quantity: 2, unitPriceCents: 1200 },
        ],
      },
    ],
    keys: [
      key('v12', '1.2.0'),
      key('v13', '1.3.0'),
      key('v14', '1.4.0'),
      key('v15'),
      key('staff12', '1.2.0', SCOPES),
      key('staff13', '1.3.0', SCOPES),
      key('staff14', '1.4.0', SCOPES),
    ],
  });
  for (const ref of Object.keys(keys) as (keyof typeof keys)[]) keys[ref] = salon.keys[ref].key;
});
afterAll(() => api.close());

const RANGE = { from: '2036-01-01T00:00:00Z', to: '2036-02-01T00:00:00Z' };

/** Every 1.2.0 read operation but GET /me, with what it is called with. */
const READS: [string, () => string, Record<string, string>][] = [
  ['listServices', () => '/services', {}],
  ['listAppointments', () => '/appointments', RANGE],
  ['getAppointment', () => `/appointments/${salon.appointments.a}`, {}],
  ['getAppointment (cancelled)', () => `/appointments/${salon.appointments.b}`, {}],
  ['listClients', () => '/clients', {}],
  ['getClient', () => `/clients/${salon.clients.joao}`, {}],
  ['listPayments', () => '/payments', {}],
  ['getPayment', () => `/payments/${salon.payments.p}`, {}],
  ['listSales', () => '/sales', {}],
  ['getSale', () => `/sales/${salon.sales.s}`, {}],
];

const read = (path: string, key: string, query: Record<string, string> = {}, headers: CallOptions['headers'] = {}) =>
  api.get(path, { key, query, headers });

const write = (path: string, key: string, body: unknown, headers: CallOptions['headers'] = {}) =>
  api.post(path, { key, body, headers: { 'Idempotency-Key': randomUUID(), ...headers } });

/** What two answers must share to be the same answer: status, media type and body bytes. */
const bytes = (res: ApiResponse) => ({ status: res.status, contentType: res.headers['content-type'], text: res.text });

/** A body's shape: its fields, in order, with their values' types (two writes make different ids and times). */
function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton);
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([key, item]) => [key, skeleton(item)]);
  return value === null ? null : typeof value;
}

let dayCount = 0;
/** A start on a day of its own, so that no two bookings of the file compete for a slot. */
const nextStart = () => new Date(Date.UTC(2036, 2, 1 + ++dayCount, 10)).toISOString();
const newPhone = () => `+35191${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

describe('a key pinned to 1.2.0 is answered what a 1.3.0 key is', () => {
  it.each(READS)('%s: the same bytes, each under its own Api-Version', async (_name, path, query) => {
    const old = await read(path(), keys.v12, query);
    const newer = await read(path(), keys.v13, query);
    expect(old.status).toBe(200);
    expect(bytes(old)).toEqual(bytes(newer));
    expect(old.headers['api-version']).toBe('1.2.0');
    expect(newer.headers['api-version']).toBe('1.3.0');
    // The read is of real data, so that the comparison means something.
    expect(old.text).toMatch(/"id":"[0-9a-f-]{36}"/);
  });

  it('GET /me: the same business and, but for its prefix and creation, the same key', async () => {
    const old = await read('/me', keys.v12);
    const newer = await read('/me', keys.v13);
    expect([old.status, old.headers['api-version'], newer.headers['api-version']]).toEqual([200, '1.2.0', '1.3.0']);
    expect(JSON.stringify(old.body.business)).toBe(JSON.stringify(newer.body.business));
    const keyFields = (body: { key: Record<string, unknown> }) => JSON.stringify({ ...body.key, prefix: 'rk_live_xxxx', createdAt: 'at' });
    expect(keyFields(old.body)).toBe(keyFields(newer.body));
    // Neither shows what 1.4.0 added to the key.
    expect(Object.keys(old.body.key)).toEqual(['name', 'prefix', 'createdAt', 'scopes']);
  });

  it('writes: the same shape of answer, and what each wrote reads the same bytes with either key', async () => {
    const booked = { v12: await bookWith(keys.v12), v13: await bookWith(keys.v13) };
    const created = {
      v12: await write('/clients', keys.v12, { name: 'Rita Lopes', phone: newPhone(), consent: true }),
      v13: await write('/clients', keys.v13, { name: 'Rita Lopes', phone: newPhone(), consent: true }),
    };
    for (const answers of [booked, created]) {
      expect([answers.v12.status, answers.v12.headers['api-version']]).toEqual([201, '1.2.0']);
      expect([answers.v13.status, answers.v13.headers['api-version']]).toEqual([201, '1.3.0']);
      expect(skeleton(answers.v12.body)).toEqual(skeleton(answers.v13.body));
    }
    for (const [path, answer] of [
      ...Object.values(booked).map((res) => [`/appointments/${res.body.id}`, res] as const),
      ...Object.values(created).map((res) => [`/clients/${res.body.id}`, res] as const),
    ]) {
      const byOld = await read(path, keys.v12);
      expect(bytes(byOld)).toEqual(bytes(await read(path, keys.v13)));
      // The write's own answer is what reading it gives (nothing changed in between).
      expect(JSON.parse(byOld.text)).toEqual(answer.body);
    }
    const cancelled = {
      v12: await write(`/appointments/${booked.v12.body.id}/cancel`, keys.v12, { reason: 'Moved away' }),
      v13: await write(`/appointments/${booked.v13.body.id}/cancel`, keys.v13, { reason: 'Moved away' }),
    };
    expect([cancelled.v12.status, cancelled.v12.headers['api-version'], cancelled.v13.headers['api-version']]).toEqual([
      200,
      '1.2.0',
      '1.3.0',
    ]);
    expect(skeleton(cancelled.v12.body)).toEqual(skeleton(cancelled.v13.body));
    for (const res of Object.values(cancelled)) {
      expect(bytes(await read(`/appointments/${res.body.id}`, keys.v12))).toEqual(
        bytes(await read(`/appointments/${res.body.id}`, keys.v13)),
      );
    }
  });
});

function bookWith(key: string): Promise<ApiResponse> {
  return write('/appointments', key, {
    serviceId: salon.services.cut,
    staffId: salon.staff.ana,
    startAt: nextStart(),
    client: { id: salon.clients.maria },
  });
}

describe('the Api-Version request header', () => {
  it.each(READS)('%s: a 1.4.0 key asking for 1.2.0 gets the 1.2.0 key’s bytes', async (_name, path, query) => {
    const pinned = await read(path(), keys.v12, query);
    const asked = await read(path(), keys.v14, query, { 'Api-Version': '1.2.0' });
    expect(bytes(asked)).toEqual(bytes(pinned));
    expect(asked.headers['api-version']).toBe('1.2.0');
    // Without asking, it is answered in its own version.
    expect((await read(path(), keys.v14, query)).headers['api-version']).toBe('1.4.0');
  });

  it('GET /me of a 1.4.0 key asking for 1.2.0 has no 1.4.0 key fields', async () => {
    const asked = await read('/me', keys.v14, {}, { 'Api-Version': '1.2.0' });
    expect(asked.headers['api-version']).toBe('1.2.0');
    expect(JSON.stringify(asked.body.business)).toBe(JSON.stringify((await read('/me', keys.v12)).body.business));
    expect(Object.keys(asked.body.key)).toEqual(['name', 'prefix', 'createdAt', 'scopes']);
  });

  it('a write of a 1.4.0 key asking for 1.2.0 is answered as the 1.2.0 key is', async () => {
    const asked = await bookWithHeader();
    const pinned = await bookWith(keys.v12);
    expect([asked.status, asked.headers['api-version']]).toEqual([201, '1.2.0']);
    expect(skeleton(asked.body)).toEqual(skeleton(pinned.body));
    expect(bytes(await read(`/appointments/${asked.body.id}`, keys.v14, {}, { 'Api-Version': '1.2.0' }))).toEqual(
      bytes(await read(`/appointments/${asked.body.id}`, keys.v12)),
    );
  });

  it.each<[string, string | string[]]>([
    ['an unknown version', '1.1.0'],
    ['a version written otherwise', 'v1.2.0'],
    ['an empty value', ''],
    ['the header twice, even with the same version', ['1.2.0', '1.2.0']],
    ['the header twice, with two versions', ['1.2.0', '1.3.0']],
  ])('%s is 400 VALIDATION_FAILED at /header/Api-Version, naming the versions served', async (_name, value) => {
    // Every operation of the current document, each under a key pinned to another version; the
    // header is checked once the key is known, before the scope, the body or the resource is.
    for (const [index, { method, path }] of CURRENT_OPERATIONS.entries()) {
      const key = [keys.staff12, keys.staff13, keys.staff14][index % 3];
      const res = await api.call(method, path.replaceAll(/\{[^}]+\}/g, randomUUID()), {
        key,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        headers: { 'Idempotency-Key': randomUUID(), 'Api-Version': value },
      });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '/header/Api-Version' })]);
      for (const version of API_VERSIONS) expect(res.body.errors[0].message).toContain(version);
      expect(res.headers['api-version']).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(CURRENT_OPERATIONS.length).toBeGreaterThanOrEqual(29);
  });
});

describe('every answer says its version', () => {
  it('before authentication: the version asked for, else the current one', async () => {
    const missing = await read('/services', '');
    expect([missing.status, missing.headers['api-version']]).toEqual([401, API_VERSIONS[API_VERSIONS.length - 1]]);
    const wrong = await read('/services', 'rk_live_wrongwrongwrongwrongwrongwrong', {}, { 'Api-Version': '1.2.0' });
    expect([wrong.status, wrong.headers['api-version']]).toEqual([401, '1.2.0']);
  });

  it("after authentication: the key's version, on errors too", async () => {
    for (const [key, version] of [
      [keys.v12, '1.2.0'],
      [keys.v13, '1.3.0'],
      [keys.v14, '1.4.0'],
      [keys.v15, '1.5.0'],
    ] as const) {
      const notFound = await read(`/appointments/${randomUUID()}`, key);
      expect([notFound.status, notFound.headers['api-version']]).toEqual([404, version]);
      const invalid = await read('/payments', key, { limit: '0' });
      expect([invalid.status, invalid.headers['api-version']]).toEqual([400, version]);
      const refused = await write('/appointments', key, { serviceId: 'not-a-uuid' });
      expect([refused.status, refused.headers['api-version']]).toEqual([400, version]);
    }
  });

  it('an operation added in 1.3.0 answers a 1.2.0 key in 1.3.0, the same bytes as a 1.3.0 key', async () => {
    for (const path of ['/staff', `/staff/${salon.staff.ana}`]) {
      const old = await read(path, keys.staff12);
      expect([old.status, old.headers['api-version']]).toEqual([200, '1.3.0']);
      expect(bytes(old)).toEqual(bytes(await read(path, keys.staff13)));
      const asked = await read(path, keys.staff14, {}, { 'Api-Version': '1.2.0' });
      expect([asked.headers['api-version'], asked.text]).toEqual(['1.3.0', old.text]);
    }
  });
});

function bookWithHeader(): Promise<ApiResponse> {
  return write(
    '/appointments',
    keys.v14,
    { serviceId: salon.services.cut, staffId: salon.staff.ana, startAt: nextStart(), client: { id: salon.clients.maria } },
    { 'Api-Version': '1.2.0' },
  );
}

describe("GET /me's authentication (1.5.0, docs/design-record.md#d30)", () => {
  it('says a key authenticated the request, and a key pinned to 1.5.0 reads as 1.4.0 to a 1.4.0 answer without it', async () => {
    const own = await read('/me', keys.v15);
    expect([own.status, own.headers['api-version']]).toEqual([200, '1.5.0']);
    expect(own.body.authentication).toEqual({ kind: 'key' });
    expect(own.body.key.apiVersion).toBe('1.5.0');

    const asked = await read('/me', keys.v15, {}, { 'Api-Version': '1.4.0' });
    expect(asked.headers['api-version']).toBe('1.4.0');
    expect(Object.keys(asked.body)).toEqual(['business', 'key']);
    expect(asked.body.key.apiVersion).toBe('1.4.0');
    const pinned = await read('/me', keys.v14);
    expect(Object.keys(asked.body.key)).toEqual(Object.keys(pinned.body.key));
    expect(asked.body.business).toEqual(pinned.body.business);
  });
});
