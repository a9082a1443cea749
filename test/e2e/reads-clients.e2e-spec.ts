import type { Schemas } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { KeyPool } from '../utils/key-pool.js';
import { seedMore } from '../utils/seed.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let db: TestSql;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
});
afterAll(() => api.close());

type Client = Schemas['Client'];

/** A client added to the tenant's business through the fixture loader; returns its id. */
async function addClient(
  tenant: Tenant,
  client: { name: string } & Partial<Record<'phone' | 'email' | 'birthDate' | 'updatedAt', string>>,
) {
  const ref = `client${Object.keys(tenant.seeded!.clients).length}`;
  tenant.seeded = await seedMore(tenant.seeded!, { clients: [{ ref, consent: true, ...client }] });
  return tenant.seeded.clients[ref];
}

describe('GET /clients', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('lists clients in order of update with the Client record, from updatedSince inclusive', async () => {
    const first = await addClient(tenant, {
      name: 'Ana',
      phone: '+351912000001',
      email: 'ana@example.com',
      birthDate: '1990-04-01',
      updatedAt: '2030-01-01T10:00:00.000001Z',
    });
    const second = await addClient(tenant, { name: 'Bia', updatedAt: '2030-01-01T10:00:00.000002Z' });
    const third = await addClient(tenant, { name: 'Caio', updatedAt: '2030-01-02T00:00:00Z' });
    const all = await api.get('/clients', { key: tenant.key });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      data: [
        {
          id: first,
          name: 'Ana',
          phone: '+351912000001',
          email: 'ana@example.com',
          birthDate: '1990-04-01',
          metadata: {},
          createdAt: '2030-01-01T10:00:00.000Z',
          updatedAt: '2030-01-01T10:00:00.000Z',
        },
        expect.objectContaining({ id: second, phone: null, email: null, birthDate: null }),
        expect.objectContaining({ id: third }),
      ],
      nextCursor: null,
    });
    // Inclusive, to the microsecond, in any offset.
    const since = await api.get('/clients', { key: tenant.key, query: { updatedSince: '2030-01-01T11:00:00.000002+01:00' } });
    expect(since.body.data.map((c: Client) => c.id)).toEqual([second, third]);
    const exact = await api.get('/clients', { key: tenant.key, query: { updatedSince: '2030-01-02T00:00:00Z' } });
    expect(exact.body.data.map((c: Client) => c.id)).toEqual([third]);
    const later = await api.get('/clients', { key: tenant.key, query: { updatedSince: '2030-01-02T00:00:00.000001Z' } });
    expect(later.body).toEqual({ data: [], nextCursor: null });
  });

  it("never lists another business's clients", async () => {
    const other = await createTenant();
    await addClient(other, { name: 'Not yours' });
    const res = await api.get('/clients', { key: tenant.key, query: { limit: 100 } });
    expect(res.body.data.map((c: Client) => c.name)).not.toContain('Not yours');
  });

  it('accepts the cursor with the same updatedSince written in another offset', async () => {
    const first = await api.get('/clients', { key: tenant.key, query: { updatedSince: '2030-01-01T00:00:00Z', limit: 1 } });
    const next = await api.get('/clients', {
      key: tenant.key,
      query: { updatedSince: '2030-01-01T01:00:00+01:00', limit: 1, cursor: first.body.nextCursor },
    });
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
  });
});

describe('walking GET /clients with limit=7 while clients change (incremental sync)', () => {
  it('returns every client not updated during the walk exactly once, and an updated one again later', async () => {
    const tenant = await createTenant();
    const keys = new KeyPool(api.app, tenant, ['clients.read']);
    // A day ago, ten clients per millisecond, three of them per microsecond: ties on the exact
    // value and neighbours 1 µs apart, which only a microsecond-exact cursor tells apart.
    const seeded = await db.queryWithGivenStamps<{ id: string }[]>(
      `INSERT INTO clients (id, business_id, name, consent, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'Walker ' || i, true, t, t
         FROM generate_series(0, 1049) AS i,
              LATERAL (SELECT now() - interval '1 day' + (i / 10) * interval '1 millisecond' + (i % 3) * interval '1 microsecond' AS t) AS stamp
       RETURNING id`,
      [tenant.businessId],
    );
    const touch = async (id: string) => db.query(`UPDATE clients SET name = name || ' (edited)', updated_at = now() WHERE id = $1`, [id]);

    const editedAfterSeen: string[] = [];
    const editedBeforeSeen: string[] = [];
    const inserted: string[] = [];
    const seen: Client[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api.get('/clients', { key: await keys.key(), query: { limit: 7, ...(cursor === null ? {} : { cursor }) } });
      expect(res.status).toBe(200);
      seen.push(...(res.body.data as Client[]));
      cursor = res.body.nextCursor as string | null;
      pages += 1;
      expect(pages).toBeLessThan(400);
      if (pages % 5 === 0 && pages <= 140) {
        const seenIds = new Set(seen.map((c) => c.id));
        const behind = seeded.find((r) => seenIds.has(r.id) && !editedAfterSeen.includes(r.id))!;
        await touch(behind.id);
        editedAfterSeen.push(behind.id);
        const ahead = seeded.filter((r) => !seenIds.has(r.id) && !editedBeforeSeen.includes(r.id)).at(-(pages % 13) - 1)!;
        await touch(ahead.id);
        editedBeforeSeen.push(ahead.id);
        inserted.push(await addClient(tenant, { name: `New during walk ${pages}` }));
      }
    } while (cursor !== null);

    const occurrences = new Map<string, Client[]>();
    for (const client of seen) occurrences.set(client.id, [...(occurrences.get(client.id) ?? []), client]);
    const changed = new Set([...editedAfterSeen, ...editedBeforeSeen]);
    for (const { id } of seeded) {
      if (!changed.has(id)) expect({ id, times: occurrences.get(id)?.length }).toEqual({ id, times: 1 });
    }
    expect(editedAfterSeen.length).toBeGreaterThan(20);
    for (const id of editedAfterSeen) {
      const met = occurrences.get(id)!;
      expect(met).toHaveLength(2);
      expect(met[1].name).toMatch(/\(edited\)$/);
      expect(seen.lastIndexOf(met[1])).toBeGreaterThan(seen.indexOf(met[0]));
    }
    for (const id of editedBeforeSeen) {
      expect(occurrences.get(id)).toEqual([expect.objectContaining({ name: expect.stringMatching(/\(edited\)$/) })]);
    }
    for (const id of inserted) expect(occurrences.get(id)).toHaveLength(1);
    const stamps = seen.map((c) => c.updatedAt);
    expect(stamps).toEqual([...stamps].sort());
  }, 120_000);
});
