import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { MIGRATIONS } from '#database/migrations.js';
import { EXTENSION_MIGRATIONS } from '#extensions/index.js';
import { copyDatabase } from './copy-database.js';
import { BENCH_SECRETS, databaseUrl, REPO_ROOT, RUN_DATABASE, TEMPLATE_DATABASE } from '../settings.js';

const GENERATOR = join(REPO_ROOT, 'bench', 'data', 'generate.sql');
/** The template is built under this name and renamed when complete, so a half-built one is never used. */
const BUILDING = `${TEMPLATE_DATABASE}_building`;

/**
 * What the template was built from: the migrations and the generator. Kept as the database's
 * comment, so a change to either rebuilds it on the next run.
 */
function templateVersion(sql: string): string {
  const migrations = [...MIGRATIONS, ...EXTENSION_MIGRATIONS].map((migration) => migration.name).join(',');
  return `bench-data ${createHash('sha256').update(migrations).update(sql).digest('hex').slice(0, 16)}`;
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function currentVersion(client: pg.Client): Promise<string | null> {
  const { rows } = await client.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [TEMPLATE_DATABASE],
  );
  return rows[0]?.comment ?? null;
}

export interface TemplateReport {
  database: string;
  version: string;
  /** Seconds spent building it in this run; null when an up-to-date template was reused. */
  builtSeconds: number | null;
}

/** Builds bench_template (migrate, then the SQL generator) unless an up-to-date one exists. */
export async function ensureTemplate(rebuild: boolean, log: (line: string) => void): Promise<TemplateReport> {
  const sql = readFileSync(GENERATOR, 'utf8');
  const version = templateVersion(sql);
  const found = await withServer(currentVersion);
  if (found === version && !rebuild) return { database: TEMPLATE_DATABASE, version, builtSeconds: null };

  log(`Building ${TEMPLATE_DATABASE} (${found === null ? 'none yet' : 'out of date'}): migrate, then generate the data…`);
  const started = performance.now();
  await withServer(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${BUILDING} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${BUILDING}`);
  });
  await promisify(execFile)(process.execPath, ['dist/apps/admin/src/main.js', 'migrate'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...BENCH_SECRETS, DATABASE_URL: databaseUrl(BUILDING), LOG_LEVEL: 'error' },
  });
  const client = new pg.Client({ connectionString: databaseUrl(BUILDING) });
  await client.connect();
  try {
    await client.query(sql);
    // Statistics and the visibility map are copied with the template: every run plans alike.
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
  await withServer(async (server) => {
    await server.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await server.query(`ALTER DATABASE ${BUILDING} RENAME TO ${TEMPLATE_DATABASE}`);
    await server.query(`COMMENT ON DATABASE ${TEMPLATE_DATABASE} IS '${version}'`);
  });
  const builtSeconds = Math.round((performance.now() - started) / 1000);
  log(`${TEMPLATE_DATABASE} built in ${builtSeconds} s`);
  return { database: TEMPLATE_DATABASE, version, builtSeconds };
}

/** A fresh bench_run, copied from the template: every run starts from the same rows. */
export async function createRunDatabase(): Promise<string> {
  await withServer((client) => copyDatabase(client, TEMPLATE_DATABASE, RUN_DATABASE));
  return databaseUrl(RUN_DATABASE);
}

/** Drops bench_run at the end: the template stays for the next run. */
export async function dropRunDatabase(): Promise<void> {
  await withServer((client) => client.query(`DROP DATABASE IF EXISTS ${RUN_DATABASE} WITH (FORCE)`));
}
