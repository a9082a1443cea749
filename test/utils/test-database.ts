import pg from 'pg';

/** The database every integration and e2e test uses; recreated and migrated once per run. */
export const TEST_DATABASE_NAME = process.env.TEST_DATABASE_NAME ?? 'scheduling_test';

export function serverUrl(): URL {
  return new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
}

export function testDatabaseUrl(): string {
  const url = serverUrl();
  url.pathname = `/${TEST_DATABASE_NAME}`;
  return url.toString();
}

export async function recreateDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl().toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}
