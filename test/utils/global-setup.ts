import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '#database/data-source-options.js';
import { recreateDatabase, TEST_DATABASE_NAME, testDatabaseUrl } from './test-database.js';

/**
 * Once per test run: a fresh database with every migration applied, so integration and e2e tests
 * run against the real schema. Each test makes its own businesses, so tests never share rows.
 */
export default async function globalSetup(): Promise<void> {
  const url = testDatabaseUrl();
  // Both the integration and e2e projects name this setup; migrate once per run only.
  if (process.env.TEST_DATABASE_READY === url) return;
  await recreateDatabase(TEST_DATABASE_NAME);
  const dataSource = new DataSource(buildDataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  process.env.TEST_DATABASE_READY = url;
  process.env.DATABASE_URL = url;
}
