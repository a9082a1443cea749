// Compares the entities with the schema the migrations build, on a scratch database.
// Used by migration-check.mjs (fails on any difference) and migration-generate.mjs (writes them).
import pg from 'pg';
import { DataSource } from 'typeorm';

const distOptions = new URL('../dist/libs/database/src/data-source-options.js', import.meta.url);

export async function withScratchDatabase(fn) {
  const adminUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `schema_diff_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Applies every migration to the database at url, then returns what TypeORM would still change. */
export async function pendingSchemaChanges(url) {
  const { buildDataSourceOptions } = await import(distOptions.href);
  const dataSource = new DataSource(buildDataSourceOptions({ url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    return await dataSource.driver.createSchemaBuilder().log();
  } finally {
    await dataSource.destroy();
  }
}
