import pg from 'pg';
// eslint-disable-next-line no-restricted-imports -- the bench's database copy lives in bench/, which has no alias
import { copyDatabase } from '../../../bench/data/copy-database.js';
import { testConfig } from '../../utils/test-config.js';

const TEMPLATE = `bench_copy_template_${process.pid}`;
const TARGET = `bench_copy_target_${process.pid}`;
/** Rows of about 1 KB: a template of about 32 MB, far above the WAL a file copy writes. */
const ROWS = 32_000;

/**
 * Issue 38: the bench copied its template with PostgreSQL 15's default strategy, which writes the
 * whole template to the WAL; that started a checkpoint spread over the first scenario's minutes,
 * its writes beside the scenario's commits. What the copy leaves behind is measured as the WAL it
 * wrote, not as a time.
 */
describe('the bench copying its template database', () => {
  const server = new pg.Client({ connectionString: testConfig().DATABASE_URL });

  beforeAll(async () => {
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await server.query(`CREATE DATABASE ${TEMPLATE}`);
    const template = new pg.Client({ connectionString: databaseUrl(TEMPLATE) });
    await template.connect();
    try {
      await template.query(`CREATE TABLE filler AS SELECT g AS id, repeat(md5(g::text), 30) AS body FROM generate_series(1, ${ROWS}) g`);
    } finally {
      await template.end();
    }
  });

  afterAll(async () => {
    await server.query(`DROP DATABASE IF EXISTS ${TARGET} WITH (FORCE)`);
    await server.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await server.end();
  });

  it('copies the files, writing a small part of the template to the WAL, and leaves the copy readable', async () => {
    const size = Number((await server.query<{ size: string }>(`SELECT pg_database_size($1) AS size`, [TEMPLATE])).rows[0].size);
    const before = await walPosition();
    await copyDatabase(server, TEMPLATE, TARGET);
    const written = Number(
      (await server.query<{ bytes: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes`, [before])).rows[0].bytes,
    );

    expect(size).toBeGreaterThan(30 * 1024 * 1024);
    // The default strategy writes at least the template's size; other work on the server meanwhile is far below half of it.
    expect(written).toBeLessThan(size / 2);

    const copy = new pg.Client({ connectionString: databaseUrl(TARGET) });
    await copy.connect();
    try {
      expect((await copy.query<{ n: number }>('SELECT count(*)::int AS n FROM filler')).rows[0].n).toBe(ROWS);
    } finally {
      await copy.end();
    }
  });

  async function walPosition(): Promise<string> {
    return (await server.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  }
});

function databaseUrl(name: string): string {
  const url = new URL(testConfig().DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
