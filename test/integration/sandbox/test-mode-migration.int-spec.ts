import { randomUUID } from 'node:crypto';
import { TestMode1795628984329 } from '#database/migrations/1795628984329-test-mode.js';
import { emptyDatabaseOfItsOwn } from '../../utils/test-database.js';

/**
 * The test mode migration (docs/design-record.md#d19) on a real PostgreSQL of its own: businesses
 * that exist keep being live, one sandbox per business, a sandbox goes with its business, and the
 * migration goes down and up again.
 */
const database = emptyDatabaseOfItsOwn('test_mode_migration');

const insertBusiness = (id: string, slug: string, live: string | null) =>
  database().query(
    `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan, live_business_id)
     VALUES ($1, $2, 'Salon', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM', $3)`,
    [id, slug, live],
  );

describe('migration TestMode1795628984329', () => {
  it('adds live_business_id: existing businesses stay live, one sandbox each, deleted with their business; down and up again', async () => {
    await database().runMigrations({ transaction: 'each' });
    const runner = database().createQueryRunner();
    try {
      // Undone, a business of the schema before test mode is stored; done again, it is live.
      await new TestMode1795628984329().down(runner);
      const before = randomUUID();
      await database().query(
        `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan) VALUES ($1, 'before', 'Salon', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM')`,
        [before],
      );
      await new TestMode1795628984329().up(runner);
      expect(await database().query('SELECT live_business_id FROM businesses WHERE id = $1', [before])).toEqual([
        { live_business_id: null },
      ]);

      const sandbox = randomUUID();
      await insertBusiness(sandbox, 'before.test', before);
      await expect(insertBusiness(randomUUID(), 'before.test2', before)).rejects.toMatchObject({
        driverError: { constraint: 'businesses_live_business_key' },
      });
      await expect(insertBusiness(randomUUID(), 'orphan.test', randomUUID())).rejects.toMatchObject({ driverError: { code: '23503' } });
      await database().query('DELETE FROM businesses WHERE id = $1', [before]);
      expect(await database().query('SELECT id FROM businesses WHERE id = $1', [sandbox])).toEqual([]);
    } finally {
      await runner.release();
    }
  });
});
