import { randomUUID } from 'node:crypto';
import type { Scope } from '#core/scopes/scope.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { KeyPool } from '../utils/key-pool.js';
import { seedMore } from '../utils/seed.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql } from '../utils/test-context.js';

let api: E2eApi;
let tenant: Tenant;
let keys: KeyPool;
let staffId: string;

const WEEK = { from: '2030-07-01T00:00:00Z', to: '2030-07-08T00:00:00Z' };
const READ_SCOPES: Scope[] = ['appointments.read', 'clients.read', 'payments.read', 'sales.read'];

/** Each list with a valid query of its own. */
const LISTS: [string, Record<string, string>][] = [
  ['/appointments', WEEK],
  ['/clients', {}],
  ['/payments', {}],
  ['/sales', {}],
];
const UPDATE_ORDER_LISTS = LISTS.filter(([path]) => path !== '/appointments').map(([path]) => path);

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
  keys = new KeyPool(api.app, tenant, READ_SCOPES);
  await seedTwoOfEach(tenant);
  staffId = (await testSql(api.app).query<{ id: string }[]>('SELECT id FROM staff WHERE business_id = $1', [tenant.businessId]))[0].id;
});
afterAll(() => api.close());

/** Two rows in every list, so that a page of one has a nextCursor. */
async function seedTwoOfEach(of: Tenant): Promise<void> {
  const two = [0, 1];
  await seedMore(of.seeded!, {
    staff: [{ ref: 'ana', name: 'Ana Costa' }],
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    clients: [
      { ref: 'first', name: 'João Silva', consent: true },
      { ref: 'second', name: 'Second', consent: true },
    ],
    appointments: two.map((i) => ({
      ref: `a${i}`,
      staff: 'ana',
      service: 'cut',
      client: 'first',
      startAt: ['2030-07-02T09:00:00Z', '2030-07-02T10:00:00Z'][i],
    })),
    payments: two.map((i) => ({
      ref: `p${i}`,
      appointment: `a${i}`,
      channel: 'IN_PERSON' as const,
      method: 'CARD' as const,
      status: 'PAID' as const,
      amountCents: 2500,
      paidAt: '2030-07-02T11:00:00Z',
    })),
    sales: two.map((i) => ({
      ref: `s${i}`,
      number: i + 1,
      status: 'COMPLETED' as const,
      items: [{ type: 'SERVICE' as const, name: 'Cut', quantity: 1, unitPriceCents: 1000 }],
    })),
  });
}

async function get(path: string, query: Record<string, string | number>, key?: string): Promise<ApiResponse> {
  return api.get(path, { key: key ?? (await keys.key()), query });
}

function expectProblem(res: ApiResponse, code: string, paths: string[]): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code });
  expect((res.body.errors as { path: string }[]).map((e) => e.path).sort()).toEqual([...paths].sort());
}

async function firstCursor(path: string, query: Record<string, string>, key?: string): Promise<string> {
  const res = await get(path, { ...query, limit: 1 }, key);
  expect(res.status).toBe(200);
  expect(res.body.nextCursor).toEqual(expect.any(String));
  return res.body.nextCursor as string;
}

describe('limit', () => {
  it.each(LISTS)('%s refuses 0, 101, abc, 1.5, -1 and empty, naming /query/limit', async (path, query) => {
    for (const limit of ['0', '101', 'abc', '1.5', '-1', '']) {
      expectProblem(await get(path, { ...query, limit }), 'VALIDATION_FAILED', ['/query/limit']);
    }
    const edges = await Promise.all([get(path, { ...query, limit: 1 }), get(path, { ...query, limit: 100 })]);
    expect(edges.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('unknown parameters', () => {
  it.each(LISTS)('%s refuses a parameter it does not list, naming it', async (path, query) => {
    expectProblem(await get(path, { ...query, sort: 'asc' }), 'VALIDATION_FAILED', ['/query/sort']);
  });

  it('GET /clients refuses the appointment filters', async () => {
    expectProblem(await get('/clients', { from: WEEK.from, status: 'CONFIRMED' }), 'VALIDATION_FAILED', ['/query/from', '/query/status']);
  });
});

describe('updatedSince', () => {
  it.each(UPDATE_ORDER_LISTS)('%s refuses what is not a date-time with an offset', async (path) => {
    for (const updatedSince of [
      'yesterday',
      '2030-01-01',
      '2030-01-01T00:00:00',
      '2030-02-30T00:00:00Z',
      '2030-01-01T25:00:00Z',
      '1700000000',
    ]) {
      expectProblem(await get(path, { updatedSince }), 'VALIDATION_FAILED', ['/query/updatedSince']);
    }
  });
});

describe('GET /appointments filters', () => {
  it('requires from and to', async () => {
    expectProblem(await get('/appointments', {}), 'VALIDATION_FAILED', ['/query/from', '/query/to']);
    expectProblem(await get('/appointments', { from: WEEK.from }), 'VALIDATION_FAILED', ['/query/to']);
    expectProblem(await get('/appointments', { to: WEEK.to }), 'VALIDATION_FAILED', ['/query/from']);
  });

  it('refuses bad dates', async () => {
    for (const bad of ['tomorrow', '2030-07-01', '2030-07-01T00:00:00', '2030-13-01T00:00:00Z', '01/07/2030']) {
      expectProblem(await get('/appointments', { ...WEEK, from: bad }), 'VALIDATION_FAILED', ['/query/from']);
      expectProblem(await get('/appointments', { ...WEEK, to: bad }), 'VALIDATION_FAILED', ['/query/to']);
    }
  });

  it('requires from before to, to the microsecond and across offsets', async () => {
    for (const [from, to] of [
      [WEEK.to, WEEK.from],
      [WEEK.from, WEEK.from],
      ['2030-07-01T02:00:00+02:00', '2030-07-01T00:00:00Z'],
      ['2030-07-01T00:00:00.000001Z', '2030-07-01T00:00:00Z'],
    ]) {
      const res = await get('/appointments', { from, to });
      expectProblem(res, 'VALIDATION_FAILED', ['/query/from']);
      expect(res.body.errors[0].message).toBe('must be before to');
    }
    expect((await get('/appointments', { from: '2030-07-01T00:00:00Z', to: '2030-07-01T00:00:00.000001Z' })).status).toBe(200);
  });

  it('refuses a staffId that is not a UUID and an unknown status', async () => {
    for (const bad of ['nope', '123', `${randomUUID()}0`, randomUUID().slice(0, 35)]) {
      expectProblem(await get('/appointments', { ...WEEK, staffId: bad }), 'VALIDATION_FAILED', ['/query/staffId']);
    }
    for (const bad of ['BOOKED', 'confirmed', '']) {
      expectProblem(await get('/appointments', { ...WEEK, status: bad }), 'VALIDATION_FAILED', ['/query/status']);
    }
  });
});

describe('cursor', () => {
  it.each(LISTS)('%s refuses garbage, an altered cursor, an empty one and one over 200 characters', async (path, query) => {
    const cursor = await firstCursor(path, query);
    const altered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    for (const bad of ['garbage', altered, '', `${cursor}${'A'.repeat(201 - cursor.length)}`, 'A'.repeat(500), `${cursor}==`]) {
      expectProblem(await get(path, { ...query, cursor: bad }), 'CURSOR_INVALID', ['/query/cursor']);
    }
    // The cursor works, twice (it is not spent), and with another limit.
    expect((await get(path, { ...query, cursor })).status).toBe(200);
    expect((await get(path, { ...query, cursor, limit: 7 })).status).toBe(200);
  });

  it.each(LISTS)('%s refuses a repeated cursor parameter', async (path, query) => {
    const cursor = await firstCursor(path, query);
    const qs = new URLSearchParams({ ...query, cursor });
    qs.append('cursor', cursor);
    const res = await api.get(`${path}?${qs.toString()}`, { key: await keys.key() });
    expectProblem(res, 'CURSOR_INVALID', ['/query/cursor']);
  });

  it.each(LISTS)('%s refuses a cursor of another business, even with a key of the same filters', async (path, query) => {
    const other = await createTenant();
    await seedTwoOfEach(other);
    const theirs = await firstCursor(path, query, other.key);
    expectProblem(await get(path, { ...query, cursor: theirs }), 'CURSOR_INVALID', ['/query/cursor']);
  });

  it('is bound to the list it was issued for', async () => {
    const clientsCursor = await firstCursor('/clients', {});
    for (const path of ['/payments', '/sales']) {
      expectProblem(await get(path, { cursor: clientsCursor }), 'CURSOR_INVALID', ['/query/cursor']);
    }
    expectProblem(await get('/appointments', { ...WEEK, cursor: clientsCursor }), 'CURSOR_INVALID', ['/query/cursor']);
  });

  it('GET /appointments refuses its cursor with any other filter', async () => {
    const cursor = await firstCursor('/appointments', WEEK);
    for (const other of [
      { ...WEEK, status: 'CONFIRMED' },
      { ...WEEK, staffId },
      { ...WEEK, from: '2030-07-01T00:00:00.000001Z' },
      { ...WEEK, to: '2030-07-09T00:00:00Z' },
    ]) {
      expectProblem(await get('/appointments', { ...other, cursor }), 'CURSOR_INVALID', ['/query/cursor']);
    }
    // The same filters, written differently, are the same filters.
    const same = await get('/appointments', { from: '2030-07-01T02:00:00+02:00', to: '2030-07-07T20:00:00-04:00', cursor });
    expect(same.status).toBe(200);
    const filtered = await firstCursor('/appointments', { ...WEEK, staffId });
    expect((await get('/appointments', { ...WEEK, staffId: staffId.toUpperCase(), cursor: filtered })).status).toBe(200);
    expectProblem(await get('/appointments', { ...WEEK, cursor: filtered }), 'CURSOR_INVALID', ['/query/cursor']);
  });

  it.each(UPDATE_ORDER_LISTS)('%s refuses its cursor with another updatedSince, or without it', async (path) => {
    const cursor = await firstCursor(path, {});
    expectProblem(await get(path, { cursor, updatedSince: '2000-01-01T00:00:00Z' }), 'CURSOR_INVALID', ['/query/cursor']);
    const since = await firstCursor(path, { updatedSince: '2000-01-01T00:00:00Z' });
    expectProblem(await get(path, { cursor: since }), 'CURSOR_INVALID', ['/query/cursor']);
    expectProblem(await get(path, { cursor: since, updatedSince: '2000-01-01T00:00:00.001Z' }), 'CURSOR_INVALID', ['/query/cursor']);
    expect((await get(path, { cursor: since, updatedSince: '2000-01-01T01:00:00+01:00' })).status).toBe(200);
  });

  it('reports the other parameters before the cursor', async () => {
    expectProblem(await get('/clients', { cursor: 'garbage', limit: 0 }), 'VALIDATION_FAILED', ['/query/limit']);
    expectProblem(await get('/appointments', { from: WEEK.to, to: WEEK.from, cursor: 'garbage' }), 'VALIDATION_FAILED', ['/query/from']);
  });
});

describe('scopes', () => {
  const routes: [string, Scope, () => string][] = [
    ['/appointments', 'appointments.read', () => `/appointments?from=${WEEK.from}&to=${WEEK.to}&limit=0`],
    ['/appointments/{id}', 'appointments.read', () => `/appointments/${randomUUID()}`],
    ['/clients', 'clients.read', () => '/clients?limit=0'],
    ['/clients/{id}', 'clients.read', () => `/clients/${randomUUID()}`],
    ['/payments', 'payments.read', () => '/payments?limit=0'],
    ['/payments/{id}', 'payments.read', () => `/payments/${randomUUID()}`],
    ['/sales', 'sales.read', () => '/sales?limit=0'],
    ['/sales/{id}', 'sales.read', () => `/sales/${randomUUID()}`],
  ];

  it('each read needs its scope, checked before the input (403 before 400 and 404)', async () => {
    // One key per missing scope, shared by its list and its item route: the business holds at
    // most 10 active keys per mode (docs/design-record.md#d28).
    const withoutScope = new Map<Scope, string>();
    for (const [route, scope, path] of routes) {
      const key =
        withoutScope.get(scope) ??
        (await createKey(
          api.app,
          tenant,
          READ_SCOPES.filter((s) => s !== scope),
        ));
      withoutScope.set(scope, key);
      const res = await api.get(path(), { key });
      expect({ route, status: res.status, code: res.body.code }).toEqual({ route, status: 403, code: 'API_SCOPE_MISSING' });
      expect(res.body.detail).toContain(scope);
    }
  });
});
