import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * A key's last use (docs/design-record.md#d26): the key lookup records it in its one statement, at
 * most once a minute per key, and the key list shows it; a key never used shows none, and a revoked
 * or unknown key records nothing.
 */
let context: TestContext;
let app: INestApplicationContext;
let sql: TestSql;

beforeAll(async () => {
  // No lookup cache: every authenticate below reaches the database.
  context = await startTestContext({ app: 'admin', config: { AUTH_CACHE_TTL_MS: '0' } });
  app = context.app;
  sql = context.sql;
});
afterAll(() => context.close());

const keys = () => app.get(ApiKeysService);
const lastUsed = async (prefix: string) =>
  (await sql.query<{ last_used_at: Date | null }[]>('SELECT last_used_at FROM api_keys WHERE prefix = $1', [prefix]))[0].last_used_at;

describe("a key's last use", () => {
  it('is none until the key is used, then the lookup time, shown by the key list', async () => {
    const salon = await seed({
      keys: [
        { ref: 'owner', member: 'owner', name: 'Used', scopes: ['services.read'] },
        { ref: 'unused', member: 'owner', name: 'Unused', scopes: ['services.read'] },
      ],
    });
    const [used, unused] = [salon.keys.owner, salon.keys.unused];
    expect(await lastUsed(used.prefix)).toBeNull();

    expect(await keys().authenticate(used.key)).not.toBeNull();
    const recorded = await lastUsed(used.prefix);
    const [{ now }] = await sql.query<{ now: Date }[]>('SELECT now() AS now');
    expect(recorded).not.toBeNull();
    expect(Math.abs(now.getTime() - recorded!.getTime())).toBeLessThan(60_000);

    const listed = (await keys().list(salon.slug)).keys;
    expect(listed.find((key) => key.prefix === used.prefix)?.lastUsedAt).toBe(recorded!.toISOString());
    expect(listed.find((key) => key.prefix === unused.prefix)?.lastUsedAt).toBeNull();
  });

  it('is written at most once a minute: a later lookup within the minute leaves it, one after it moves it', async () => {
    const salon = await seed({});
    const { key, prefix } = salon.keys.owner;
    await keys().authenticate(key);
    const first = await lastUsed(prefix);
    await keys().authenticate(key);
    expect(await lastUsed(prefix)).toEqual(first);

    // As if the last use were two minutes ago.
    await sql.query(`UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE prefix = $1`, [prefix]);
    const aged = await lastUsed(prefix);
    await keys().authenticate(key);
    expect((await lastUsed(prefix))!.getTime()).toBeGreaterThan(aged!.getTime());
  });

  it('is not recorded for a revoked key, which the lookup refuses', async () => {
    const salon = await seed({});
    const { key, prefix } = salon.keys.owner;
    await sql.query('UPDATE api_keys SET revoked_at = now() WHERE prefix = $1', [prefix]);
    expect(await keys().authenticate(key)).toBeNull();
    expect(await lastUsed(prefix)).toBeNull();
  });
});
