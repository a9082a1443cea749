import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '#database/data-source-options.js';
import { EXTENSION_MIGRATIONS } from '#extensions/index.js';
import { testDatabaseUrl } from './test-database.js';

// Runs before every integration and e2e file. Migrating is a no-op once done; the advisory
// lock keeps parallel Jest workers from migrating at the same time. The registered extensions'
// migrations run too, as `migrate` runs them: a test that enables one finds its tables.
beforeAll(async () => {
  const dataSource = new DataSource(
    buildDataSourceOptions({ url: testDatabaseUrl(), poolSize: 1, extensionMigrations: EXTENSION_MIGRATIONS }),
  );
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock(727274)');
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query('SELECT pg_advisory_unlock(727274)');
  } finally {
    await dataSource.destroy();
  }
});
