import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '#database/data-source-options.js';
import { TestMode1795628984329 } from '#database/migrations/1795628984329-test-mode.js';
import { serverUrl, TEST_DATABASE_NAME } from '../../utils/test-database.js';

/**
 * The test mode migration (docs/design-record.md#d19) on a real PostgreSQL of its own: businesses
 * that exist keep being live, one sandbox per business, a sandbox goes with its business, and the
 * migration goes down and up again.
 */
const name = `${TEST_DATABASE_NAME}_test_mode_migration`;
const admin = new pg.Client({ connectionString: serverUrl().toString() });
let dataSource: DataSource;

const insertBusiness = (id: string, slug: string, live: string | null) =>
  dataSource.query(
    `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan, live_business_id)
     VALUES ($1, $2, 'Salon', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM', $3)`,
    [id, slug, live],
  );

beforeAll(async () => {
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = serverUrl();
  url.pathname = `/${name}`;
  dataSource = new DataSource(buildDataSourceOptions({ url: url.toString(), poolSize: 3 }));
  await dataSource.initialize();
  await dataSource.query('CREATE EXTENSION IF NOT EXISTS btree_gist');
});
afterAll(async () => {
  await dataSource?.destroy();
  await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
  await admin.end();
});

describe('migration TestMode1795628984329', () => {
  it('adds live_business_id: existing businesses stay live, one sandbox each, deleted with their business; down and up again', async () => {
    await dataSource.runMigrations({ transaction: 'each' });
    const runner = dataSource.createQueryRunner();
    try {
      // Undone, a business of the schema before test mode is stored; done again, it is live.
      await new TestMode1795628984329().down(runner);
      const before = randomUUID();
      await dataSource.query(
        `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan) VALUES ($1, 'before', 'Salon', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM')`,
        [before],
      );
      await new TestMode1795628984329().up(runner);
      expect(await dataSource.query('SELECT live_business_id FROM businesses WHERE id = $1', [before])).toEqual([
        { live_business_id: null },
      ]);

      const sandbox = randomUUID();
      await insertBusiness(sandbox, 'before.test', before);
      await expect(insertBusiness(randomUUID(), 'before.test2', before)).rejects.toMatchObject({
        driverError: { constraint: 'businesses_live_business_key' },
      });
      await expect(insertBusiness(randomUUID(), 'orphan.test', randomUUID())).rejects.toMatchObject({ driverError: { code: '23503' } });
      await dataSource.query('DELETE FROM businesses WHERE id = $1', [before]);
      expect(await dataSource.query('SELECT id FROM businesses WHERE id = $1', [sandbox])).toEqual([]);
    } finally {
      await runner.release();
    }
  });
});
