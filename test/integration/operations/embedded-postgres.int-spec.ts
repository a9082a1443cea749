import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import { preparedNameOn } from '#database/statement-names.js';
// eslint-disable-next-line no-restricted-imports -- the embedded database of `npm start` lives in scripts/, outside test/
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../scripts/embedded-postgres.js';
import { buildApps, Child } from '../../utils/child-process.js';
import { testConfig } from '../../utils/test-config.js';
import { exampleFixture } from '../fixtures/example-fixture.js';

/**
 * The embedded PostgreSQL of `npm start` is one PGlite session behind a socket; many pooled
 * connections must still each get their own answers and their own transactions.
 */
jest.setTimeout(240_000);

let embedded: EmbeddedPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  embedded = await startEmbeddedPostgres('memory://');
  pool = new pg.Pool({ connectionString: embedded.url, max: 10 });
  await pool.query('CREATE TABLE items (id int PRIMARY KEY, owner text NOT NULL)');
});

afterAll(async () => {
  await pool?.end();
  await embedded?.stop();
});

describe('embedded PostgreSQL (scripts/embedded-postgres.ts)', () => {
  it('runs the service’s prepared statements from many connections, though they share one session', async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => pool.connect()));
    try {
      for (let round = 0; round < 2; round += 1) {
        const answers = await Promise.all(
          clients.map((client, i) =>
            // As the statement layer sends a declared statement: under its name on this connection.
            client.query<{ n: number }>({ name: preparedNameOn(client, 'embedded_echo'), text: 'SELECT $1::int AS n', values: [i] }),
          ),
        );
        answers.forEach((answer, i) => expect(answer.rows).toEqual([{ n: i }]));
      }
    } finally {
      clients.forEach((client) => client.release());
    }
  });

  it('keeps a transaction’s SET LOCAL plan_cache_mode, sent with its BEGIN as the statement layer does, to that transaction', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    const mode = async (client: pg.PoolClient, i: number) =>
      (
        await client.query<{ mode: string; n: number }>({
          name: preparedNameOn(client, 'embedded_plan_mode'),
          text: "SELECT current_setting('plan_cache_mode') AS mode, $1::int AS n",
          values: [i],
        })
      ).rows;
    try {
      // Concurrent transactions: the one session runs them one after another.
      const answers = await Promise.all(
        clients.map(async (client, i) => {
          await client.query('BEGIN; SET LOCAL plan_cache_mode = force_generic_plan');
          const inside = await mode(client, i);
          await client.query('COMMIT');
          return { inside, after: await mode(client, i) };
        }),
      );
      answers.forEach((answer, i) =>
        expect(answer).toEqual({ inside: [{ mode: 'force_generic_plan', n: i }], after: [{ mode: 'auto', n: i }] }),
      );
    } finally {
      clients.forEach((client) => client.release());
    }
  });

  it('answers each of many concurrent parameterised queries with its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.query<{ n: number; label: string }>('SELECT $1::int AS n, $2::text AS label', [i, `q${i}`]),
      ),
    );
    answers.forEach((answer, i) => expect(answer.rows).toEqual([{ n: i, label: `q${i}` }]));
  });

  it('answers queries that waited behind another connection’s transaction with their own rows', async () => {
    // What @electric-sql/pglite-socket gets wrong: the queries queued meanwhile run message by
    // message, interleaved, and most get another query's rows.
    await pool.query("INSERT INTO items SELECT g, 'owner' || g FROM generate_series(100, 119) g");
    for (let round = 0; round < 5; round += 1) {
      const holder = await pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1');
        const waiting = Array.from({ length: 8 }, (_, i) =>
          pool.query<{ id: number; owner: string }>('SELECT id, owner FROM items WHERE id = $1', [100 + i]),
        );
        await new Promise((resolve) => setTimeout(resolve, 30));
        await holder.query('COMMIT');
        const answers = await Promise.all(waiting);
        answers.forEach((answer, i) => expect(answer.rows).toEqual([{ id: 100 + i, owner: `owner${100 + i}` }]));
      } finally {
        holder.release();
      }
    }
    await pool.query('DELETE FROM items');
  });

  it('keeps a transaction to its connection while the others wait, and rolls back one left open by a client that went away', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO items VALUES (1, $1)', ['a']);
      // b waits for a's transaction, then sees its outcome, never its inside.
      const seenByB = b.query<{ count: string }>('SELECT count(*) AS count FROM items');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await a.query('INSERT INTO items VALUES (2, $1)', ['a']);
      await a.query('ROLLBACK');
      expect((await seenByB).rows[0].count).toBe('0');

      const gone = new pg.Client({ connectionString: embedded.url });
      gone.on('error', () => undefined);
      await gone.connect();
      await gone.query('BEGIN');
      await gone.query('INSERT INTO items VALUES (3, $1)', ['gone']);
      gone.connection.stream.destroy();
      const after = await b.query<{ count: string }>('SELECT count(*) AS count FROM items');
      expect(after.rows[0].count).toBe('0');
    } finally {
      a.release();
      b.release();
    }
  });

  it('reports an error to the connection that made it, and goes on serving', async () => {
    await expect(pool.query('SELECT * FROM missing_table')).rejects.toThrow(/missing_table/);
    const [ok, failed] = await Promise.allSettled([pool.query('SELECT 1 AS one'), pool.query('SELECT 1/0')]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { rows: [{ one: 1 }] } });
    expect(failed).toMatchObject({ status: 'rejected' });
  });
});

describe('admin commands beside npm start', () => {
  let folder: string;

  beforeAll(async () => {
    await buildApps();
    folder = await mkdtemp(join(tmpdir(), 'embedded-admin-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** The environment of the compiled admin command line against the embedded database, as a developer runs it beside `npm start`. */
  function adminEnv(): NodeJS.ProcessEnv {
    const config = testConfig();
    return {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: embedded.url,
      API_KEY_PEPPER: config.API_KEY_PEPPER,
      CURSOR_SECRET: config.CURSOR_SECRET,
      SECRETS_KEY: config.SECRETS_KEY,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'error',
    };
  }

  /** The command's exit code, with its output when it failed (to say why). */
  async function admin(argv: string[]): Promise<{ code: number | null; output: string }> {
    const child = Child.spawn(process.execPath, ['dist/apps/admin/src/main.js', ...argv], adminEnv());
    const code = await child.exited;
    return { code, output: code === 0 ? '' : child.output };
  }

  it('record notices from several processes, each more than once: statement names never clash in the one shared session', async () => {
    expect(await admin(['migrate'])).toEqual({ code: 0, output: '' });
    const file = join(folder, 'fixture.json');
    await writeFile(file, JSON.stringify(exampleFixture('embedded-salon')));
    const loaded = Child.spawn(process.execPath, ['dist/apps/admin/src/main.js', 'fixtures', 'load', file], adminEnv());
    expect(await loaded.exited).toBe(0);
    const appointment = (JSON.parse(loaded.output) as { businesses: { salon: { appointments: Record<string, string> } } }).businesses.salon
      .appointments.a1;

    const record = () =>
      admin(['payment', 'record', '--business', 'embedded-salon', '--appointment', appointment, '--amount', '2500', '--method', 'CARD']);
    // Every payment record writes a notice (insert_notice), each process preparing it anew.
    for (let round = 0; round < 2; round += 1) {
      const runs = await Promise.all([record(), record()]);
      for (const run of runs) expect(run).toEqual({ code: 0, output: '' });
    }
    const counted = await pool.query<{ count: string }>(`SELECT count(*) AS count FROM notices WHERE type = 'payment.received'`);
    expect(counted.rows[0].count).toBe('4');
  });
});
