import { E2eApi } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

let api: E2eApi;
let salon: SeededBusiness;
let other: SeededBusiness;
let key: string;

const sorted = (ids: string[]) => [...ids].sort();

beforeAll(async () => {
  api = await E2eApi.start();
  salon = await seed({
    services: [
      { ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 },
      { ref: 'colour', name: 'Colour', durationMin: 90, priceCents: 6000 },
      { ref: 'old', name: 'Old perm', durationMin: 60, priceCents: 4000, active: false },
    ],
    staff: [
      // Two members named alike: the id decides their order.
      { ref: 'ana1', name: 'Ana' },
      { ref: 'ana2', name: 'Ana' },
      { ref: 'bruno', name: 'Bruno', services: ['colour', 'old'] },
      { ref: 'carla', name: 'Carla', active: false, services: ['cut'] },
      { ref: 'dora', name: 'Dora', services: ['old'] },
    ],
  });
  other = await seed({ staff: [{ ref: 'eve', name: 'Eve' }] });
  key = salon.keys.owner.key;
});
afterAll(() => api.close());

const list = (query: Record<string, string | number | boolean> = {}, withKey = key) =>
  api.get('/staff', { key: withKey, query: query as Record<string, string> });

describe('GET /staff', () => {
  it('lists the members by name then id, each with the active services it performs', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const [first, second] = sorted([salon.staff.ana1, salon.staff.ana2]);
    const active = sorted([salon.services.cut, salon.services.colour]);
    expect(res.body).toEqual({
      data: [
        { id: first, name: 'Ana', active: true, serviceIds: active },
        { id: second, name: 'Ana', active: true, serviceIds: active },
        // Its list names an inactive service too: only the active one is shown.
        { id: salon.staff.bruno, name: 'Bruno', active: true, serviceIds: [salon.services.colour] },
        { id: salon.staff.carla, name: 'Carla', active: false, serviceIds: [salon.services.cut] },
        // Performs only an inactive service: nothing to book with it.
        { id: salon.staff.dora, name: 'Dora', active: true, serviceIds: [] },
      ],
      nextCursor: null,
    });
  });

  it('pages with a cursor, every member once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(cursor ? { limit: 2, cursor } : { limit: 2 });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((m: { id: string }) => m.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    const all = (await list()).body.data.map((m: { id: string }) => m.id);
    expect(seen).toEqual(all);
  });

  it('filters by service (exactly the members whose serviceIds list it) and by active', async () => {
    const ids = async (query: Record<string, string | boolean>) => (await list(query)).body.data.map((m: { id: string }) => m.id);
    expect(sorted(await ids({ serviceId: salon.services.colour }))).toEqual(
      sorted([salon.staff.ana1, salon.staff.ana2, salon.staff.bruno]),
    );
    expect(sorted(await ids({ serviceId: salon.services.cut }))).toEqual(sorted([salon.staff.ana1, salon.staff.ana2, salon.staff.carla]));
    expect(await ids({ serviceId: salon.services.old })).toEqual([]);
    expect(await ids({ serviceId: other.staff.eve })).toEqual([]);
    expect(await ids({ active: false })).toEqual([salon.staff.carla]);
    expect(await ids({ active: true, serviceId: salon.services.cut })).toEqual(sorted([salon.staff.ana1, salon.staff.ana2]));
  });

  it('binds the cursor to the filters', async () => {
    const first = await list({ limit: 1, active: true });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const moved = await list({ limit: 1, active: false, cursor: first.body.nextCursor });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('CURSOR_INVALID');
    const elsewhere = await list({ limit: 1, active: true, cursor: first.body.nextCursor }, other.keys.owner.key);
    expect(elsewhere.body.code).toBe('CURSOR_INVALID');
  });

  it('refuses bad filters and unknown parameters with 400 naming them', async () => {
    for (const [query, path] of [
      [{ active: 'yes' }, '/query/active'],
      [{ serviceId: 'not-a-uuid' }, '/query/serviceId'],
      [{ limit: 0 }, '/query/limit'],
      [{ name: 'Ana' }, '/query/name'],
    ] as const) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it("never shows another business's staff", async () => {
    const res = await list({}, other.keys.owner.key);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([other.staff.eve]);
  });
});

describe('GET /staff/{id}', () => {
  it('answers one member, active or not', async () => {
    const res = await api.get(`/staff/${salon.staff.carla}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: salon.staff.carla, name: 'Carla', active: false, serviceIds: [salon.services.cut] });
  });

  it("answers 404 for an unknown id, another business's member and a non-UUID", async () => {
    for (const id of ['0195d0a4-0000-7000-8000-000000000000', other.staff.eve, 'nope']) {
      const res = await api.get(`/staff/${id}`, { key });
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
  });
});

describe('scope', () => {
  it('needs services.read', async () => {
    const limited = await seed({ scopes: ['appointments.read'], staff: [{ ref: 'zed', name: 'Zed' }] });
    for (const path of ['/staff', `/staff/${limited.staff.zed}`]) {
      const res = await api.get(path, { key: limited.keys.owner.key });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('API_SCOPE_MISSING');
    }
  });
});
