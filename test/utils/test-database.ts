import pg from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '#database/data-source-options.js';

/** The database every integration and e2e test uses; recreated once per run (global-setup.mjs). */
export const TEST_DATABASE_NAME = process.env.TEST_DATABASE_NAME ?? 'scheduling_test';

export function serverUrl(): URL {
  return new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
}

export function testDatabaseUrl(): string {
  const url = serverUrl();
  url.pathname = `/${TEST_DATABASE_NAME}`;
  return url.toString();
}

/**
 * An empty database of the suite's own, `<test database>_<suffix>`, made before its tests and
 * dropped after them, for a migration to be run up and down on (no other suite sees it). The
 * returned function gives its data source once `beforeAll` has run.
 */
export function emptyDatabaseOfItsOwn(suffix: string): () => DataSource {
  const name = `${TEST_DATABASE_NAME}_${suffix}`;
  const admin = new pg.Client({ connectionString: serverUrl().toString() });
  let dataSource: DataSource | undefined;
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
  return () => {
    if (!dataSource) throw new Error('The database of its own is made in beforeAll');
    return dataSource;
  };
}
