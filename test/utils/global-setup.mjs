// Once per test run: a fresh, empty test database. The schema is then built by the migrations
// (test/utils/migrate-once.ts), so tests always run on what `npm run migrate` produces.
// Plain JavaScript: Jest loads global setup outside its TypeScript transform.
import pg from 'pg';

export default async function globalSetup() {
  const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = process.env.TEST_DATABASE_NAME ?? 'scheduling_test';
  if (process.env.TEST_DATABASE_CREATED === name) return;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  process.env.TEST_DATABASE_CREATED = name;
}
