import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { loadContract, operationsById } from '#contract/openapi-document.js';
import type { FixtureAppointment } from '#core/fixtures/fixture-file.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { seedMore, seedNotice, type SeededBusiness } from '../utils/seed.js';
import { testSql, type TestSql } from '../utils/test-context.js';
import { representativeCases, type RepresentativeCase } from './support/representative-requests.js';
import { loadRobustSalon, SEEDED_YEAR, type RobustSalon } from './support/robust-salon.js';

/**
 * Issue 15 (docs/design-record.md#d19): test mode's isolation, over every operation of the
 * generated operations table, so a new route is covered the day it is added. A test key sent the
 * live business's requests (its ids in the path, the query and the body) never reads, lists,
 * books on, changes or is told about live data, and a live key sent the sandbox's requests never
 * sees sandbox data: what names the other mode's ids is 404 NOT_FOUND, what names none succeeds
 * on the key's own mode, and no answer carries the other mode's ids or private strings.
 */
jest.setTimeout(120_000);

const operations = operationsById(loadContract().document);
let api: E2eApi;
let db: TestSql;
let live: RobustSalon;
let sandbox: RobustSalon;

/** The sandbox as a RobustSalon: the copied catalogue, and clients, appointments, payments, sales, endpoints and events of its own. */
async function sandboxSalonOf(salon: RobustSalon): Promise<RobustSalon> {
  const made = salon.sandbox!;
  const tag = `sbx${randomUUID().slice(0, 6)}`;
  const clientNames = [`Sandra ${tag}`, `Tomás ${tag}`, `Zé ${tag}`];
  const refs: SeededBusiness = {
    id: made.id,
    slug: salon.tenant.slug,
    ownerEmail: null,
    members: {},
    staff: made.staff,
    services: made.services,
    clients: {},
    appointments: {},
    payments: {},
    sales: {},
    keys: {},
    webhooks: {},
  };
  const active: FixtureAppointment[] = Array.from({ length: 8 }, (_, n) => ({
    ref: `active${n}`,
    staff: n % 2 === 0 ? 'ana' : 'rui',
    service: 'cut',
    client: `c${n % 3}`,
    startAt: new Date(Date.UTC(SEEDED_YEAR, 0, 1 + n, 9 + n)).toISOString(),
  }));
  const inactive = (['COMPLETED', 'CANCELLED', 'RESCHEDULED', 'NO_SHOW'] as const).map((status, i): FixtureAppointment => ({
    ref: `inactive${i}`,
    staff: 'ana',
    service: 'color',
    client: 'c0',
    startAt: `${SEEDED_YEAR - 1}-0${i + 1}-10T10:00:00Z`,
    status,
    ...(status === 'CANCELLED' ? { cancellationReason: `sandbox reason ${tag}` } : {}),
  }));
  const loaded = await seedMore(refs, {
    clients: clientNames.map((name, i) => ({
      ref: `c${i}`,
      name,
      phone: `+3519${[1, 2, 6][i]}${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
      email: `sandbox${i}.${tag}@example.com`,
      consent: true,
      notes: `sandbox notes ${tag}`,
    })),
    appointments: [...active, ...inactive],
    payments: [0, 1, 2].map((n) => ({
      ref: `pay${n}`,
      appointment: `active${n}`,
      channel: 'ONLINE' as const,
      method: 'CARD' as const,
      status: 'PAID' as const,
      amountCents: 2500,
      paidAt: '2026-01-01T10:00:00Z',
    })),
    sales: [0, 1].map((n) => ({
      ref: `sale${n}`,
      client: 'c0',
      appointment: `active${n}`,
      status: 'COMPLETED' as const,
      items: [],
      internalNote: `sandbox note ${tag}`,
    })),
  });
  // Its endpoints are made as a partner makes them: through the API, with the test key.
  const endpoint = async (ref: string): Promise<string> => {
    const res = await api.post('/webhook-endpoints', {
      key: made.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { url: `http://127.0.0.1:9/${ref}-${tag}`, events: ['client.created', 'appointment.created'] },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const business = { id: made.id, slug: salon.tenant.slug };
  return {
    tenant: {
      businessId: made.id,
      slug: salon.tenant.slug,
      ownerEmail: salon.tenant.ownerEmail,
      key: made.key,
      prefix: made.key.slice(0, 12),
    },
    staff: { ana: made.staff.ana, rui: made.staff.rui, bea: made.staff.bea },
    services: { cut: made.services.cut, color: made.services.color, retired: made.services.retired },
    clients: [0, 1, 2].map((i) => loaded.clients[`c${i}`]),
    activeAppointments: active.map((a) => loaded.appointments[a.ref]),
    inactiveAppointments: inactive.map((a) => loaded.appointments[a.ref]),
    payments: [0, 1, 2].map((n) => loaded.payments[`pay${n}`]),
    sales: [0, 1].map((n) => loaded.sales[`sale${n}`]),
    endpoints: { hook: await endpoint('hook'), spare: await endpoint('spare'), doomed: await endpoint('doomed') },
    events: [(await seedNotice(business, 'client.created')).id, (await seedNotice(business, 'client.created')).id],
    secrets: [...clientNames, `sandbox reason ${tag}`, `sandbox note ${tag}`, `sandbox notes ${tag}`],
  };
}

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  live = await loadRobustSalon({ activeAppointments: 8, testKey: true });
  sandbox = await sandboxSalonOf(live);
});
afterAll(() => api.close());

/** Every id of a salon's rows: none may appear in the other mode's answers. */
function idsOf(salon: RobustSalon): string[] {
  return [
    salon.tenant.businessId,
    ...Object.values(salon.staff),
    ...Object.values(salon.services),
    ...salon.clients,
    ...salon.activeAppointments,
    ...salon.inactiveAppointments,
    ...salon.payments,
    ...salon.sales,
    ...Object.values(salon.endpoints),
    ...salon.events,
  ];
}

/** Its private strings. The staff and service names are the catalogue, which the sandbox copies on purpose. */
function privateStrings(salon: RobustSalon): string[] {
  return salon.secrets.filter((secret) => !/^(Ana|Corte) /.test(secret));
}

/** Rows of the business in every table that has a business_id, and deliveries to its endpoints. */
async function footprint(salon: RobustSalon): Promise<Record<string, unknown>> {
  const tables = await db.query<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'business_id' ORDER BY 1`,
  );
  const out: Record<string, unknown> = {};
  for (const { table_name: table } of tables) {
    // Each row as text: a change to any column, not only a count, shows.
    const rows = await db.query<{ row: string }[]>(`SELECT t::text AS row FROM "${table}" t WHERE business_id = $1 ORDER BY 1`, [
      salon.tenant.businessId,
    ]);
    out[table] = rows.map((r) => r.row);
  }
  const endpoints = Object.values(salon.endpoints);
  out.deliveries = (
    await db.query<{ row: string }[]>('SELECT d::text AS row FROM notice_deliveries d WHERE endpoint_id = ANY($1::uuid[]) ORDER BY 1', [
      endpoints,
    ])
  ).map((r) => r.row);
  return out;
}

function send(c: RepresentativeCase, key: string): Promise<ApiResponse> {
  const headers = c.headers['Idempotency-Key'] ? { ...c.headers, 'Idempotency-Key': randomUUID() } : c.headers;
  return api.call(c.method, c.path, { key, rawBody: c.body, headers });
}

/**
 * Sends, with `key`, the first successful request of every operation built on `other`'s data, and
 * returns what went wrong (empty when nothing did).
 */
async function crossModeProblems(key: string, other: RobustSalon, slotDay: number): Promise<string[]> {
  const otherIds = idsOf(other);
  const forbidden = [...otherIds, ...privateStrings(other)];
  const all = representativeCases(other, slotDay);
  const problems: string[] = [];
  for (const [operationId, { path: template }] of operations) {
    const c = all.find((x) => x.operationId === operationId && x.status < 300);
    if (!c) {
      problems.push(`${operationId}: no successful representative request`);
      continue;
    }
    const res = await send(c, key);
    const namesOther = otherIds.some((id) => c.path.includes(id) || (c.body ?? '').includes(id));
    const label = `${operationId} ${c.method} ${c.path.split('?')[0]}`;
    if (namesOther && (template.includes('{') || c.method !== 'GET')) {
      // By id, or a write naming its rows: as if they did not exist.
      if (res.status !== 404 || res.body.code !== 'NOT_FOUND') problems.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
    } else if (namesOther) {
      // A read filtered by its ids: unknown (404), or an answer without them.
      if (res.status !== 404 && res.status !== 200) problems.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
    } else if (res.status >= 300) {
      // Nothing of the other mode named: the request works on the key's own mode.
      problems.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    const leaked = forbidden.filter((secret) => res.text.includes(secret));
    if (leaked.length > 0) problems.push(`${label}: shows ${leaked.join(', ')}`);
  }
  return problems;
}

describe('test mode isolation, over every operation of the contract', () => {
  it('a test key never reads, lists, books on or changes live data', async () => {
    const before = await footprint(live);
    expect(await crossModeProblems(sandbox.tenant.key, live, 3)).toEqual([]);
    expect(await footprint(live)).toEqual(before);
  });

  it('a live key never sees or changes sandbox data', async () => {
    const before = await footprint(sandbox);
    expect(await crossModeProblems(live.tenant.key, sandbox, 4)).toEqual([]);
    expect(await footprint(sandbox)).toEqual(before);
  });

  it("every list, read whole, holds only the key's own mode's rows", async () => {
    const lists = [...operations]
      .filter(([id, o]) => o.method === 'get' && !o.path.includes('{') && id !== 'getMe' && id !== 'getAvailability')
      .map(([id]) => id);
    expect(lists.length).toBeGreaterThanOrEqual(7);
    for (const [mine, other] of [
      [sandbox, live],
      [live, sandbox],
    ] as const) {
      const cases = representativeCases(mine, 5);
      for (const operationId of lists) {
        const c = cases.find((x) => x.operationId === operationId && x.status < 300)!;
        const res = await api.get(c.path.replace(/limit=\d+/, 'limit=100'), { key: mine.tenant.key });
        expect({ operationId, status: res.status }).toEqual({ operationId, status: 200 });
        const shown = idsOf(other).filter((id) => res.text.includes(id));
        expect({ operationId, shown }).toEqual({ operationId, shown: [] });
      }
      // And each mode does see its own rows.
      const clients = await api.get('/clients?limit=100', { key: mine.tenant.key });
      expect(clients.body.data.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(mine.clients));
    }
  });

  it('GET /me: the same business (name and slug) in both modes; the key tells them apart', async () => {
    const [asLive, asTest] = [await api.get('/me', { key: live.tenant.key }), await api.get('/me', { key: sandbox.tenant.key })];
    expect(asTest.body.business).toEqual(asLive.body.business);
    expect(asTest.body.business.slug).toBe(live.tenant.slug);
    expect(asTest.body.key.prefix).toMatch(/^rk_test_/);
    expect(asLive.body.key.prefix).toMatch(/^rk_live_/);
  });
});
