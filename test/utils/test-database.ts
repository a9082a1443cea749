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
