import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Database } from '#database/database.js';
import { sharePerTenant } from '#database/pool-share.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { eventually } from '../utils/notice-receiver.js';
import { seed } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { testDatabaseUrl } from '../utils/test-database.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';
import { SCOPES } from '#core/scopes/scope.js';

/**
 * docs/design-record.md#pool-share-per-business (D28): a business at its full legal rate (10 live
 * keys and 10 test keys, each well under its 120 a minute) sends its writes all at once, and every
 * one of them holds its connection inside PostgreSQL: the test holds its business rows locked in a
 * transaction of its own, so each new client's row waits for the row lock its foreign key needs.
 * Beside it another business's reads and writes are all served, and the first never holds more than
 * half of the pool: counted from the outside (the backends waiting on the test's lock) and by the
 * process's own count. Its requests beyond its share wait their turn and, past
 * DATABASE_CONNECT_TIMEOUT_MS, answer 503 SERVICE_UNAVAILABLE with Retry-After.
 */
const POOL = 4;
const SHARE = sharePerTenant(POOL);
const KEYS_PER_MODE = 10;
const REQUESTS_PER_KEY = 3;

let api: E2eApi;
/** Holds the hostile's business rows locked, in a transaction of its own. */
let side: pg.Client;
/**
 * Looks at pg_stat_activity from outside any transaction: within one, PostgreSQL answers from the
 * snapshot it took at the transaction's first look.
 */
let observer: pg.Client;

beforeAll(async () => {
  api = await E2eApi.start(testConfig({ DATABASE_POOL_SIZE: String(POOL), DATABASE_CONNECT_TIMEOUT_MS: '1500' }));
  side = new pg.Client({ connectionString: testDatabaseUrl() });
  observer = new pg.Client({ connectionString: testDatabaseUrl() });
  await Promise.all([side.connect(), observer.connect()]);
});
afterAll(async () => {
  await Promise.all([side.end(), observer.end()]);
  await api.close();
});

const newClient = () => ({
  name: 'Cliente',
  phone: `+35191${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
  email: `c.${randomUUID().slice(0, 12)}@example.com`,
  consent: true,
});

const createClient = (key: string) => api.post('/clients', { key, body: newClient(), headers: { 'Idempotency-Key': randomUUID() } });

/**
 * Backends of the API's pool that wait behind the side transaction's lock, directly or behind
 * another that waits for it (PostgreSQL queues the second waiter of a row behind the first): the
 * hostile's requests held inside PostgreSQL, each on a connection of the pool.
 */
async function blockedBySide(sidePid: number): Promise<number> {
  const { rows } = await observer.query<{ count: string }>(
    `WITH RECURSIVE blocked(pid) AS (
       SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))
       UNION
       SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY(pg_blocking_pids(a.pid))
     )
     SELECT count(*) AS count FROM blocked JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'scheduling-api'`,
    [sidePid],
  );
  return Number(rows[0].count);
}

describe('a business at its full legal rate beside another', () => {
  it("serves every request of the other while the first holds at most its share of the pool, and refuses the first's overflow 503 once it has waited too long", async () => {
    const hostile = await seed({
      members: [{ ref: 'owner', name: 'Owner', email: `owner.${randomUUID().slice(0, 8)}@salon.example`, role: 'OWNER' }],
      keys: [
        ...Array.from({ length: KEYS_PER_MODE }, (_, i) => ({ ref: `live${i}`, member: 'owner', name: `Live ${i}`, scopes: SCOPES })),
        ...Array.from({ length: KEYS_PER_MODE }, (_, i) => ({
          ref: `test${i}`,
          member: 'owner',
          name: `Test ${i}`,
          scopes: SCOPES,
          mode: 'test' as const,
        })),
      ],
    });
    const hostileKeys = Object.values(hostile.keys).map(({ key }) => key);
    expect(hostileKeys).toHaveLength(2 * KEYS_PER_MODE);
    const victim = await createTenantWithSandbox({
      services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
      staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
      clients: [
        { ref: 'joao', name: 'João', phone: '+351911000123', email: `joao.${randomUUID().slice(0, 8)}@example.com`, consent: true },
      ],
    });
    // Every key authenticated once, as keys in use have been.
    for (const key of [...hostileKeys, victim.live, victim.test]) expect((await api.get('/me', { key })).status).toBe(200);

    const share = api.app.get(Database).poolShare;
    const { rows: pidRows } = await side.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const sidePid = pidRows[0].pid;
    await side.query('BEGIN');
    await side.query('SELECT id FROM businesses WHERE id = ANY($1::uuid[]) FOR UPDATE', [[hostile.id, hostile.sandbox!.id]]);
    let locked = true;
    let hostileCalls: Promise<ApiResponse>[] = [];
    try {
      hostileCalls = hostileKeys.flatMap((key) => Array.from({ length: REQUESTS_PER_KEY }, () => createClient(key)));
      const answered: ApiResponse[] = [];
      for (const call of hostileCalls) void call.then((res) => answered.push(res));

      // Its share held in PostgreSQL and more of its requests waiting in the process (or, were it
      // not limited, more than its share held).
      await eventually(
        async () => {
          const blocked = await blockedBySide(sidePid);
          return blocked > SHARE || (blocked === SHARE && share.waitingOf(hostile.id) > 0);
        },
        20_000,
        "the hostile's requests holding connections inside PostgreSQL and more of them waiting",
      );
      // The metrics say as much: only the hostile's requests hold connections now.
      expect((await api.metrics()).text).toMatch(new RegExp(`^database_pool_share_held ${SHARE}$`, 'm'));

      // While it lasts: the victim's reads and writes, live and test, twice the pool's worth,
      // while its neighbour's holding is sampled from the outside and inside.
      const seen = { blocked: 0, held: 0 };
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          seen.blocked = Math.max(seen.blocked, await blockedBySide(sidePid));
          seen.held = Math.max(seen.held, share.heldBy(hostile.id));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const victimStatuses: number[] = [];
      for (let round = 0; round < 2; round++) {
        const calls = await Promise.all([
          api.get('/me', { key: victim.live }),
          api.get('/services', { key: victim.live }),
          api.get('/clients', { key: victim.live }),
          api.get(`/clients/${victim.clients.joao}`, { key: victim.live }),
          createClient(victim.live),
          api.get('/me', { key: victim.test }),
          api.get('/clients', { key: victim.test }),
          createClient(victim.test),
        ]);
        victimStatuses.push(...calls.map((res) => res.status));
      }
      // The hostile's overflow waits its turn no longer than DATABASE_CONNECT_TIMEOUT_MS.
      await eventually(() => Promise.resolve(answered.some((res) => res.status === 503)), 20_000, 'a hostile request refused 503');
      sampling = false;
      await sampler;

      expect(victimStatuses).toEqual(Array.from({ length: 16 }, (_, i) => (i % 8 === 4 || i % 8 === 7 ? 201 : 200)));
      expect(seen).toEqual({ blocked: SHARE, held: SHARE });

      await side.query('ROLLBACK');
      locked = false;
      const outcomes = await Promise.all(hostileCalls);
      const statuses: Record<number, number> = {};
      for (const res of outcomes) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      // Each either carried out or refused as busy: none lost, none a 500.
      expect(Object.keys(statuses).sort()).toEqual(['201', '503']);
      expect(statuses[201] + statuses[503]).toBe(2 * KEYS_PER_MODE * REQUESTS_PER_KEY);
      for (const res of outcomes.filter((r) => r.status === 503)) {
        expect({ code: res.body.code, retryAfter: res.headers['retry-after'] }).toEqual({ code: 'SERVICE_UNAVAILABLE', retryAfter: '5' });
      }
      // Every slot comes back (a request's last statements may end just after its answer).
      await eventually(
        () => Promise.resolve(share.heldBy(hostile.id) === 0 && share.waitingOf(hostile.id) === 0),
        5_000,
        "every slot of the hostile's given back",
      );
    } finally {
      if (locked) await side.query('ROLLBACK');
      await Promise.allSettled(hostileCalls);
    }
  });
});
