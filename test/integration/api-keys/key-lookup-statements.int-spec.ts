import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * The key lookup is one statement (docs/design-record.md#d2, #d19): the key, its business and, for
 * a test key, the live business's slug and plan, in one join. Every request whose key the cache
 * cannot answer pays it, so a second round trip would show on every such request. Statements are
 * counted where they leave for the server: every query of every pooled connection.
 */
let context: TestContext;
let app: INestApplicationContext;
let sql: TestSql;
const sent: string[] = [];

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
  app = context.app;
  sql = context.sql;
  const pool = (app.get(DataSource, { strict: false }).driver as unknown as { master: pg.Pool }).master;
  const wrapped = new WeakSet<pg.PoolClient>();
  // Every connection lent by the pool, whoever borrows it (the statement layer, TypeORM, a test).
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string; name?: string };
      // A declared statement is prepared under its name plus a process and connection suffix (statement-names.ts).
      sent.push(typeof first === 'string' ? first : (first.name?.replace(/_[0-9a-f]{8}_\d+$/, '') ?? first.text ?? '?'));
      return query(...args);
    };
  });
});
afterAll(() => context.close());
afterEach(() => jest.restoreAllMocks());

/** The statements sent while `work` runs, and what it returned. */
async function counted<T>(work: () => Promise<T>): Promise<{ statements: string[]; result: T }> {
  sent.length = 0;
  const result = await work();
  return { statements: [...sent], result };
}

/** The service's lookup cache holds no key of a test before it: each test makes its own. */
const keys = () => app.get(ApiKeysService);

async function business(): Promise<SeededBusiness> {
  return seed({ plan: 'SOLO' });
}

describe('the key lookup', () => {
  it('reads a live key with its business in one statement: id, scopes, business, slug and plan', async () => {
    const live = await business();
    const { statements, result } = await counted(() => keys().authenticate(live.keys.owner.key));
    expect(statements).toEqual(['find_active_api_key']);
    expect(result).toMatchObject({
      prefix: live.keys.owner.prefix,
      businessId: live.id,
      businessSlug: live.slug,
      plan: 'SOLO',
      mode: 'live',
    });
    expect(result!.scopes.length).toBeGreaterThan(0);
  });

  it("reads a test key in one statement too: the sandbox's id under the live business's slug and plan", async () => {
    const live = await business();
    const created = await keys().create({
      businessSlug: live.slug,
      memberEmail: live.ownerEmail!,
      name: 'Sandbox',
      scopes: ['appointments.read'],
      test: true,
    });
    const [sandbox] = await sql.query<{ id: string }[]>('SELECT id FROM businesses WHERE live_business_id = $1', [live.id]);
    // The sandbox row's own plan is never the one presented (the lookup joins the live row).
    await sql.query(`UPDATE businesses SET plan = 'FREE' WHERE id = $1`, [sandbox.id]);
    const { statements, result } = await counted(() => keys().authenticate(created.key));
    expect(statements).toEqual(['find_active_api_key']);
    expect(result).toMatchObject({
      businessId: sandbox.id,
      businessSlug: live.slug,
      plan: 'SOLO',
      mode: 'test',
      scopes: ['appointments.read'],
    });
  });

  it('refuses a revoked key and an unknown one in one statement each, and a malformed one in none', async () => {
    const live = await business();
    await sql.query('UPDATE api_keys SET revoked_at = now() WHERE prefix = $1', [live.keys.owner.prefix]);
    const revoked = await counted(() => keys().authenticate(live.keys.owner.key));
    expect(revoked).toEqual({ statements: ['find_active_api_key'], result: null });

    // Well formed (its checksum holds) but never stored.
    const other = await business();
    await sql.query('DELETE FROM api_keys WHERE prefix = $1', [other.keys.owner.prefix]);
    const unknown = await counted(() => keys().authenticate(other.keys.owner.key));
    expect(unknown).toEqual({ statements: ['find_active_api_key'], result: null });

    const malformed = await counted(() => keys().authenticate('rk_live_not-a-key'));
    expect(malformed).toEqual({ statements: [], result: null });
  });

  it('answers again from the cache, without a statement, while the entry lives', async () => {
    const live = await business();
    // The clock is held still, so the cached entry cannot expire between the two lookups.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now);
    const first = await counted(() => keys().authenticate(live.keys.owner.key));
    const second = await counted(() => keys().authenticate(live.keys.owner.key));
    expect(first.statements).toEqual(['find_active_api_key']);
    expect(second).toEqual({ statements: [], result: first.result });
  });
});
