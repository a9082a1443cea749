import type { Schemas } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed } from '../utils/seed.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/** GET /appointments in order of update (`updatedSince`) and by client (`clientId`), 1.4.0 (docs/design-record.md#d23). */
let api: E2eApi;
let db: TestSql;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
});
afterAll(() => api.close());

type Appointment = Schemas['Appointment'];

const CAST = {
  staff: [{ ref: 'ana', name: 'Ana Costa' }],
  clients: [
    { ref: 'joao', name: 'João Silva', consent: true },
    { ref: 'rita', name: 'Rita Lopes', consent: true },
  ],
  services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
};

/** Four appointments whose update order is the reverse of their start order: a, b (same instant), c, d. */
async function salonWithUpdates() {
  const salon = await seed({
    ...CAST,
    appointments: [
      { ref: 'd', staff: 'ana', service: 'cut', client: 'joao', startAt: '2030-01-07T09:00:00Z' },
      { ref: 'c', staff: 'ana', service: 'cut', client: 'rita', startAt: '2030-01-07T10:00:00Z' },
      { ref: 'b', staff: 'ana', service: 'cut', client: 'joao', startAt: '2030-01-07T11:00:00Z' },
      { ref: 'a', staff: 'ana', service: 'cut', client: 'rita', startAt: '2030-01-07T12:00:00Z' },
    ],
  });
  const at: Record<string, string> = {
    a: '2029-06-01T10:00:00.000001Z',
    b: '2029-06-01T10:00:00.000001Z',
    c: '2029-06-02T10:00:00Z',
    d: '2029-06-03T10:00:00Z',
  };
  for (const [ref, updatedAt] of Object.entries(at)) {
    await db.queryWithGivenStamps('UPDATE appointments SET updated_at = $2::timestamptz WHERE id = $1', [
      salon.appointments[ref],
      updatedAt,
    ]);
  }
  return salon;
}

async function walk(key: string, query: string, limit: number): Promise<Appointment[]> {
  const seen: Appointment[] = [];
  let cursor: string | null = null;
  do {
    const res = await api.get(`/appointments?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { key });
    expect(res.status).toBe(200);
    seen.push(...(res.body.data as Appointment[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor !== null);
  return seen;
}

describe('GET /appointments?updatedSince= (1.4.0)', () => {
  it('lists in order of (updatedAt, id) from updatedSince inclusive, without from and to, one page at a time', async () => {
    const salon = await salonWithUpdates();
    const key = salon.keys.owner.key;
    const ab = [salon.appointments.a, salon.appointments.b].sort();
    const all = await walk(key, 'updatedSince=2029-01-01T00:00:00Z', 1);
    expect(all.map((a) => a.id)).toEqual([...ab, salon.appointments.c, salon.appointments.d]);
    // Inclusive, to the microsecond, in any offset.
    const since = await walk(key, `updatedSince=${encodeURIComponent('2029-06-02T11:00:00+01:00')}`, 50);
    expect(since.map((a) => a.id)).toEqual([salon.appointments.c, salon.appointments.d]);
    const exact = await walk(key, 'updatedSince=2029-06-01T10:00:00.000001Z', 50);
    expect(exact).toHaveLength(4);
    const after = await walk(key, 'updatedSince=2029-06-01T10:00:00.000002Z', 50);
    expect(after.map((a) => a.id)).toEqual([salon.appointments.c, salon.appointments.d]);
  });

  it('keeps from/to as bounds of the start, and status, staffId and clientId as filters', async () => {
    const salon = await salonWithUpdates();
    const key = salon.keys.owner.key;
    const ranged = await walk(key, 'updatedSince=2029-01-01T00:00:00Z&from=2030-01-07T10:00:00Z&to=2030-01-07T12:00:00Z', 50);
    expect(ranged.map((a) => a.id)).toEqual([salon.appointments.b, salon.appointments.c]);
    const onlyFrom = await walk(key, 'updatedSince=2029-01-01T00:00:00Z&from=2030-01-07T11:00:00Z', 50);
    expect(onlyFrom.map((a) => a.id).sort()).toEqual([salon.appointments.a, salon.appointments.b].sort());
    const joao = await walk(key, `updatedSince=2029-01-01T00:00:00Z&clientId=${salon.clients.joao}`, 1);
    expect(joao.map((a) => a.id)).toEqual([salon.appointments.b, salon.appointments.d]);
    const withStaff = await walk(
      key,
      `updatedSince=2029-01-01T00:00:00Z&staffId=${salon.staff.ana}&status=CONFIRMED&clientId=${salon.clients.rita}`,
      1,
    );
    expect(withStaff.map((a) => a.id)).toEqual([salon.appointments.a, salon.appointments.c]);
  });

  it('binds its cursor to the order and the filters', async () => {
    const salon = await salonWithUpdates();
    const key = salon.keys.owner.key;
    const first = await api.get('/appointments?updatedSince=2029-01-01T00:00:00Z&limit=1', { key });
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const query of [
      'updatedSince=2029-01-01T00:00:01Z',
      `updatedSince=2029-01-01T00:00:00Z&clientId=${salon.clients.joao}`,
      'from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z',
    ]) {
      const res = await api.get(`/appointments?${query}&cursor=${cursor}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('CURSOR_INVALID');
    }
  });
});

describe('GET /appointments?clientId= by start (1.4.0)', () => {
  it("lists one client's appointments in [from, to), by start; an unknown client gives an empty list", async () => {
    const salon = await salonWithUpdates();
    const key = salon.keys.owner.key;
    const range = 'from=2030-01-07T00:00:00Z&to=2030-01-08T00:00:00Z';
    const rita = await walk(key, `${range}&clientId=${salon.clients.rita}`, 1);
    expect(rita.map((a) => a.id)).toEqual([salon.appointments.c, salon.appointments.a]);
    expect(rita.every((a) => a.client.id === salon.clients.rita)).toBe(true);
    const upper = await walk(key, `${range}&clientId=${salon.clients.rita.toUpperCase()}`, 50);
    expect(upper).toHaveLength(2);
    const nobody = await api.get(`/appointments?${range}&clientId=01944b8f-7e6d-7c5b-9a49-38271605f4e3`, { key });
    expect(nobody.body).toEqual({ data: [], nextCursor: null });
    // Without clientId the start order is as it was: every appointment.
    expect(await walk(key, range, 2)).toHaveLength(4);
  });
});

describe('GET /appointments: the 400s of the two forms', () => {
  it('requires from and to without updatedSince, naming each missing one', async () => {
    const salon = await seed(CAST);
    const key = salon.keys.owner.key;
    for (const [query, paths] of [
      ['', ['/query/from', '/query/to']],
      ['from=2030-01-07T00:00:00Z', ['/query/to']],
      ['to=2030-01-07T00:00:00Z', ['/query/from']],
      [`clientId=${salon.clients.joao}`, ['/query/from', '/query/to']],
    ] as const) {
      const res = await api.get(`/appointments${query ? `?${query}` : ''}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    }
  });

  it('refuses an unreadable updatedSince or clientId, and from not before to, naming the field', async () => {
    const salon = await seed(CAST);
    const key = salon.keys.owner.key;
    for (const [query, path] of [
      ['updatedSince=yesterday', '/query/updatedSince'],
      ['updatedSince=2030-01-07T00:00:00', '/query/updatedSince'],
      ['updatedSince=2030-01-07T00:00:00Z&clientId=joao', '/query/clientId'],
      ['from=2030-01-07T00:00:00Z&to=2030-01-08T00:00:00Z&clientId=42', '/query/clientId'],
      ['updatedSince=2030-01-07T00:00:00Z&from=2030-01-08T00:00:00Z&to=2030-01-07T00:00:00Z', '/query/from'],
    ] as const) {
      const res = await api.get(`/appointments?${query}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });
});
