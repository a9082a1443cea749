import { jest } from '@jest/globals';
import { loadContract, operationsById } from '#contract/openapi-document.js';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { SCOPES, type Scope } from '#core/scopes/scope.js';
import { E2eApi, type ApiResponse, type CallMethod, type CallOptions } from '../utils/e2e-api.js';
import { createKey } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';
import { representativeCases, type RepresentativeCase } from './support/representative-requests.js';
import { BOOKING_YEAR, loadRobustSalon, SEEDED_YEAR, type RobustSalon } from './support/robust-salon.js';

/**
 * Issue 8.4: the gates, over every route. Only a key with an operation's x-required-scope gets
 * past 403 (GET /me needs none); another business's ids, in the path or in a body, are always
 * 404 NOT_FOUND and never show its data; and every kind of bad key gets the same 401 body.
 */
jest.setTimeout(60_000);

const operations = operationsById(loadContract().document);
let api: E2eApi;
let mine: RobustSalon;
let theirs: RobustSalon;
let db: TestSql;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  [mine, theirs] = await Promise.all([loadRobustSalon({ activeAppointments: 8 }), loadRobustSalon({ activeAppointments: 8 })]);
});
afterAll(() => api.close());

/** One request per operation that a key with every scope gets answered with a success. */
function successCases(salon: RobustSalon, day: number): RepresentativeCase[] {
  const all = representativeCases(salon, day);
  return [...operations.keys()].map((op) => all.find((c) => c.operationId === op && c.status < 300)!);
}

async function revoke(key: string): Promise<void> {
  await api.app.get(ApiKeysService).revoke(mine.tenant.slug, { prefix: key.slice(0, 12) });
}

function send(c: RepresentativeCase, key: string | undefined, options: Partial<CallOptions> = {}): Promise<ApiResponse> {
  const headers = c.headers['Idempotency-Key']
    ? { ...c.headers, 'Idempotency-Key': `matrix-${Date.now()}-${Math.random().toString(36).slice(2)}` }
    : c.headers;
  return api.call(c.method, c.path, { key, rawBody: c.body, ...options, headers: { ...headers, ...options.headers } });
}

describe("scopes: only the operation's x-required-scope gets past 403", () => {
  it('for every operation and every single-scope key (and a key with all the others)', async () => {
    const single = Object.fromEntries(
      await Promise.all(SCOPES.map(async (s) => [s, await createKey(api.app, mine.tenant, [s])] as const)),
    ) as Record<Scope, string>;
    const outcomes: string[] = [];
    const cases = successCases(mine, 1);
    const requiredOf = (c: RepresentativeCase) => operations.get(c.operationId)!.operation['x-required-scope'] as Scope | undefined;
    for (const c of cases) {
      const required = requiredOf(c);
      for (const scope of SCOPES) {
        const res = await send(c, single[scope]);
        const allowed = required === undefined || scope === required;
        const ok = allowed
          ? res.status !== 403
          : res.status === 403 && res.body.code === 'API_SCOPE_MISSING' && String(res.body.detail).includes(required);
        if (!ok) outcomes.push(`${c.operationId} with ${scope}: ${res.status} ${res.text.slice(0, 160)}`);
      }
      // GET /me: any valid key, whatever its scopes.
      if (required === undefined) for (const scope of SCOPES) expect((await send(c, single[scope])).status).toBe(200);
    }
    // A business holds at most 10 active keys per mode (docs/design-record.md#d28): the single-scope
    // keys go before the keys with every scope but one come, one at a time.
    for (const key of Object.values(single)) await revoke(key);
    for (const c of cases) {
      const required = requiredOf(c);
      if (required === undefined) continue;
      const others = await createKey(
        api.app,
        mine.tenant,
        SCOPES.filter((s) => s !== required),
      );
      const res = await send(c, others);
      if (res.status !== 403) outcomes.push(`${c.operationId} with every scope but ${required}: ${res.status}`);
      await revoke(others);
    }
    expect(outcomes).toEqual([]);
  });
});

describe("another business's ids: always 404 NOT_FOUND, never its data", () => {
  const appointmentsOf = async (salon: RobustSalon) =>
    db.query<{ id: string; status: string; starts_at: Date; staff_id: string }[]>(
      'SELECT id, status, starts_at, staff_id FROM appointments WHERE business_id = $1 ORDER BY id',
      [salon.tenant.businessId],
    );
  const countOf = async (table: string, salon: RobustSalon) =>
    Number((await db.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table} WHERE business_id = $1`, [salon.tenant.businessId]))[0].n);

  function expectNotFound(res: ApiResponse, what: string): void {
    expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status: 404, code: 'NOT_FOUND' });
    for (const secret of [...theirs.secrets, theirs.tenant.slug, theirs.tenant.businessId]) expect(res.text).not.toContain(secret);
  }

  it('in the path of every operation that takes an id', async () => {
    const before = await appointmentsOf(theirs);
    const key = mine.tenant.key;
    const slot = new Date(Date.UTC(BOOKING_YEAR + 11, 2, 3, 10)).toISOString();
    const idempotency = () => ({ 'Idempotency-Key': `cross-${Math.random().toString(36).slice(2)}` });
    const pathOperations = [...operations.values()].filter((o) => o.path.includes('{id}'));
    const tried: string[] = [];
    const json = (body: object) => ({ body, headers: { 'Content-Type': 'application/json' } });
    const cases: [CallMethod, string, Partial<CallOptions>][] = [
      ['GET', `/appointments/${theirs.activeAppointments[0]}`, {}],
      ['PATCH', `/appointments/${theirs.activeAppointments[0]}`, json({ metadata: { crmId: 'not-mine' } })],
      ['POST', `/appointments/${theirs.activeAppointments[0]}/reschedule`, { body: { startAt: slot }, headers: idempotency() }],
      ['POST', `/appointments/${theirs.activeAppointments[1]}/cancel`, { body: { reason: 'Not mine to cancel.' }, headers: idempotency() }],
      ['GET', `/clients/${theirs.clients[0]}`, {}],
      ['GET', `/payments/${theirs.payments[0]}`, {}],
      ['GET', `/sales/${theirs.sales[0]}`, {}],
      ['GET', `/staff/${theirs.staff.ana}`, {}],
      ['GET', `/webhook-endpoints/${theirs.endpoints.hook}`, {}],
      ['PATCH', `/webhook-endpoints/${theirs.endpoints.hook}`, json({ active: false })],
      ['DELETE', `/webhook-endpoints/${theirs.endpoints.hook}`, {}],
      ['POST', `/webhook-endpoints/${theirs.endpoints.hook}/rotate-secret`, { headers: idempotency() }],
      ['POST', `/webhook-endpoints/${theirs.endpoints.hook}/test`, { headers: idempotency() }],
      ['GET', `/webhook-endpoints/${theirs.endpoints.hook}/deliveries`, {}],
      ['GET', `/events/${theirs.events[0]}`, {}],
      ['POST', `/events/${theirs.events[0]}/redeliver`, { headers: idempotency() }],
    ];
    for (const [method, path, init] of cases) {
      expectNotFound(await api.call(method, path, { key, ...init }), `${method} ${path}`);
      tried.push(`${method.toLowerCase()} ${path.replace(/[0-9a-f-]{36}/, '{id}')}`);
    }
    expect(tried.sort()).toEqual(pathOperations.map((o) => `${o.method} ${o.path}`).sort());
    // Their service or staff member named in a query is unknown here too.
    const day = `from=${BOOKING_YEAR + 11}-03-02T00:00:00Z&to=${BOOKING_YEAR + 11}-03-03T00:00:00Z`;
    for (const query of [`serviceId=${theirs.services.cut}`, `serviceId=${mine.services.cut}&staffId=${theirs.staff.ana}`]) {
      expectNotFound(await api.get(`/availability?${query}&${day}`, { key }), `GET /availability?${query}`);
    }
    expect(await appointmentsOf(theirs)).toEqual(before);
    // Their endpoint is untouched, and my event cannot be sent to it.
    const [endpoint] = await db.query<{ enabled: boolean }[]>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [
      theirs.endpoints.hook,
    ]);
    expect(endpoint).toEqual({ enabled: true });
    expectNotFound(
      await api.post(`/events/${mine.events[0]}/redeliver`, { key, headers: idempotency(), body: { endpointId: theirs.endpoints.hook } }),
      'redeliver to their endpointId',
    );
  });

  it('in a body: staffId, serviceId and client.id of a booking, staffId of a reschedule', async () => {
    const before = {
      appointments: await countOf('appointments', theirs),
      mine: await countOf('appointments', mine),
      clients: await countOf('clients', theirs),
    };
    const key = mine.tenant.key;
    const startAt = new Date(Date.UTC(BOOKING_YEAR + 11, 3, 4, 10)).toISOString();
    const booking = { staffId: mine.staff.ana, serviceId: mine.services.cut, startAt, client: { id: mine.clients[0] } };
    const post = (path: string, body: object) =>
      api.post(path, { key, body, headers: { 'Idempotency-Key': `body-ref-${Math.random().toString(36).slice(2)}` } });
    expectNotFound(await post('/appointments', { ...booking, staffId: theirs.staff.ana }), 'booking with their staffId');
    expectNotFound(await post('/appointments', { ...booking, serviceId: theirs.services.cut }), 'booking with their serviceId');
    expectNotFound(await post('/appointments', { ...booking, client: { id: theirs.clients[0] } }), 'booking with their client.id');
    expectNotFound(
      await post(`/appointments/${mine.activeAppointments[2]}/reschedule`, { startAt, staffId: theirs.staff.ana }),
      'reschedule to their staffId',
    );
    expect({
      appointments: await countOf('appointments', theirs),
      mine: await countOf('appointments', mine),
      clients: await countOf('clients', theirs),
    }).toEqual(before);
  });

  it('a list filtered by their staff member is empty', async () => {
    const res = await api.get('/appointments', {
      key: mine.tenant.key,
      query: { from: `${SEEDED_YEAR}-01-01T00:00:00Z`, to: `${SEEDED_YEAR + 1}-01-01T00:00:00Z`, staffId: theirs.staff.ana },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('401 API_KEY_INVALID: the same body for every bad key, on every route', () => {
  it('missing, malformed, bad checksum, unknown, revoked, and two different keys', async () => {
    const revoked = await createKey(api.app, mine.tenant, SCOPES);
    await revoke(revoked);
    const valid = mine.tenant.key;
    const badChecksum = `${valid.slice(0, -1)}${valid.endsWith('A') ? 'B' : 'A'}`;
    const kinds: [string, Partial<CallOptions> & { key?: string }][] = [
      ['missing', {}],
      ['malformed', { key: 'not-a-key' }],
      ['a key cut short', { key: valid.slice(0, -3) }],
      ['bad checksum', { key: badChecksum }],
      ['unknown', { key: generateApiKey() }],
      ['revoked', { key: revoked }],
      ['revoked, in X-API-Key', { key: revoked, keyHeader: 'x-api-key' }],
      ['bad checksum, in X-API-Key', { key: badChecksum, keyHeader: 'x-api-key' }],
      ['Basic instead of Bearer', { headers: { Authorization: `Basic ${Buffer.from(`${valid}:`).toString('base64')}` } }],
      ['Bearer with nothing', { headers: { Authorization: 'Bearer ' } }],
      ['two different keys', { key: valid, headers: { 'X-API-Key': generateApiKey() } }],
    ];
    const bodies = new Map<string, string[]>();
    for (const c of successCases(mine, 2)) {
      for (const [kind, options] of kinds) {
        const res = await send(c, options.key, options);
        expect({ route: c.operationId, kind, status: res.status }).toEqual({ route: c.operationId, kind, status: 401 });
        expect(res.headers['ratelimit-limit']).toBeUndefined();
        const { requestId, ...rest } = res.body as Record<string, unknown>;
        expect(requestId).toBe(res.headers['x-request-id']);
        const text = JSON.stringify(rest);
        bodies.set(text, [...(bodies.get(text) ?? []), `${c.operationId}/${kind}`]);
      }
    }
    expect([...bodies.keys()]).toHaveLength(1);
    expect(JSON.parse([...bodies.keys()][0])).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
  });
});
