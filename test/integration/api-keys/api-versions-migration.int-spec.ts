import { randomUUID } from 'node:crypto';
import { API_VERSIONS, VERSION_BEFORE_PINNING } from '#contract/versions/api-versions.js';
import { ApiVersions1795730000000 } from '#database/migrations/1795730000000-api-versions.js';
import { PublishedApiVersions1795835000000 } from '#database/migrations/1795835000000-published-api-versions.js';
import { emptyDatabaseOfItsOwn } from '../../utils/test-database.js';

/**
 * The version pinning migration (docs/design-record.md#d22) on a real PostgreSQL of its own: keys
 * and endpoints that exist are pinned to 1.3.0, a new row must name its version (no default), the
 * checks accept exactly the published versions, and the migration goes down and up again.
 */
const database = emptyDatabaseOfItsOwn('api_versions_migration');

const business = randomUUID();
const member = randomUUID();

/** A key as the schema before pinning stores it, or with `version` after. */
const insertKey = (id: string, version?: string) =>
  database().query(
    `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes${version === undefined ? '' : ', api_version'})
     VALUES ($1, $2, $3, 'K', 'rk_live_AbCd', $4, ARRAY['services.read']${version === undefined ? '' : ', $5'})`,
    [id, business, member, `hash-${id}`, ...(version === undefined ? [] : [version])],
  );
const insertEndpoint = (id: string, version?: string) =>
  database().query(
    `INSERT INTO webhook_endpoints (id, business_id, url, events, secret${version === undefined ? '' : ', api_version'})
     VALUES ($1, $2, 'https://hooks.example/in', ARRAY['client.created'], 'whsec_x'${version === undefined ? '' : ', $3'})`,
    version === undefined ? [id, business] : [id, business, version],
  );

describe('migration ApiVersions1795730000000', () => {
  it('pins existing keys and endpoints to 1.3.0, then every insert names a published version; down and up again', async () => {
    await database().runMigrations({ transaction: 'each' });
    const runner = database().createQueryRunner();
    try {
      // Undone, a key and an endpoint of the schema before pinning are stored; done again, they are 1.3.0.
      await new ApiVersions1795730000000().down(runner);
      await database().query(
        `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan) VALUES ($1, 'pinned', 'Salon', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM')`,
        [business],
      );
      await database().query(`INSERT INTO members (id, business_id, name, email, role) VALUES ($1, $2, 'Owner', 'o@x.example', 'OWNER')`, [
        member,
        business,
      ]);
      const [oldKey, oldEndpoint] = [randomUUID(), randomUUID()];
      await insertKey(oldKey);
      await insertEndpoint(oldEndpoint);
      await new ApiVersions1795730000000().up(runner);
      // The checks as 1.5.0's migration leaves them (it replaces them, docs/design-record.md#d30).
      await new PublishedApiVersions1795835000000().up(runner);

      expect(VERSION_BEFORE_PINNING).toBe('1.3.0');
      expect(await database().query('SELECT api_version FROM api_keys WHERE id = $1', [oldKey])).toEqual([{ api_version: '1.3.0' }]);
      expect(await database().query('SELECT api_version FROM webhook_endpoints WHERE id = $1', [oldEndpoint])).toEqual([
        { api_version: '1.3.0' },
      ]);

      // No default: an insert that does not name the version is refused.
      await expect(insertKey(randomUUID())).rejects.toMatchObject({ driverError: { code: '23502', column: 'api_version' } });
      await expect(insertEndpoint(randomUUID())).rejects.toMatchObject({ driverError: { code: '23502', column: 'api_version' } });
      // The checks accept every published version and nothing else.
      for (const version of API_VERSIONS) {
        await insertKey(randomUUID(), version);
        await insertEndpoint(randomUUID(), version);
      }
      await expect(insertKey(randomUUID(), '1.6.0')).rejects.toMatchObject({ driverError: { constraint: 'api_keys_api_version_check' } });
      await expect(insertEndpoint(randomUUID(), '1.1.0')).rejects.toMatchObject({
        driverError: { constraint: 'webhook_endpoints_api_version_check' },
      });
    } finally {
      await runner.release();
    }
  });
});

describe('migration PublishedApiVersions1795835000000', () => {
  it('lets keys and endpoints be pinned to 1.5.0, and going down pins them to 1.4.0', async () => {
    await database().runMigrations({ transaction: 'each' });
    const [key, endpoint] = [randomUUID(), randomUUID()];
    await insertKey(key, '1.5.0');
    await insertEndpoint(endpoint, '1.5.0');
    const runner = database().createQueryRunner();
    try {
      await new PublishedApiVersions1795835000000().down(runner);
      expect(await database().query('SELECT api_version FROM api_keys WHERE id = $1', [key])).toEqual([{ api_version: '1.4.0' }]);
      expect(await database().query('SELECT api_version FROM webhook_endpoints WHERE id = $1', [endpoint])).toEqual([
        { api_version: '1.4.0' },
      ]);
      await expect(insertKey(randomUUID(), '1.5.0')).rejects.toMatchObject({ driverError: { constraint: 'api_keys_api_version_check' } });
      await new PublishedApiVersions1795835000000().up(runner);
      await insertKey(randomUUID(), '1.5.0');
    } finally {
      await runner.release();
    }
  });
});
