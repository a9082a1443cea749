import { ServedContract } from '#contract/served-contract.js';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { NOTICE_CHANNEL, SWEEP_PAYLOAD } from '#core/notices/outbox/notice-channel.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import { RelayWakeup } from '#core/notices/outbox/relay-wakeup.js';
import { RelayWakeupRepository } from '#core/notices/outbox/relay-wakeup.repository.js';
import { Database } from '#database/database.js';
import { preparedNameOn } from '#database/statement-names.js';
// eslint-disable-next-line no-restricted-imports -- the embedded database of `npm start` lives in scripts/, outside test/
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../scripts/embedded-postgres.js';
import { buildApps, Child, freePort } from '../../utils/child-process.js';
import { eventually, NoticeReceiver } from '../../utils/notice-receiver.js';
import { testConfig } from '../../utils/test-config.js';
import { exampleBusiness, exampleFixture, uniqueSlug } from '../fixtures/example-fixture.js';

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

  describe('LISTEN / NOTIFY, though PGlite writes every notification to the connection that sent the NOTIFY', () => {
    /** A connection of its own, with the notifications it receives, as "channel:payload". */
    async function connect(): Promise<{ client: pg.Client; received: string[] }> {
      const client = new pg.Client({ connectionString: embedded.url });
      const received: string[] = [];
      client.on('notification', (message) => received.push(`${message.channel}:${message.payload ?? ''}`));
      client.on('error', () => undefined);
      await client.connect();
      return { client, received };
    }

    it('delivers a committed NOTIFY of any connection to every connection that LISTENs on its channel, and to no other', async () => {
      const first = await connect();
      const second = await connect();
      const notifier = await connect();
      const bystander = await connect();
      try {
        await first.client.query('LISTEN embedded_chan');
        await second.client.query('LISTEN "Embedded Chan"; LISTEN embedded_chan');

        await notifier.client.query("NOTIFY embedded_chan, 'simple'");
        await notifier.client.query('SELECT pg_notify($1, $2)', ['embedded_chan', 'extended']);
        await notifier.client.query("BEGIN; NOTIFY embedded_chan, 'rolled back'; ROLLBACK");
        await notifier.client.query('BEGIN');
        await notifier.client.query('SELECT pg_notify($1, $2)', ['Embedded Chan', 'committed']);
        await notifier.client.query('COMMIT');
        await notifier.client.query("NOTIFY embedded_chan, 'end'");
        // Each connection receives its notifications in order: 'end' is the last of them.
        await eventually(() => Promise.resolve(first.received.includes('embedded_chan:end')), 30_000, 'the first listener');
        await eventually(() => Promise.resolve(second.received.includes('embedded_chan:end')), 30_000, 'the second listener');
        expect(first.received).toEqual(['embedded_chan:simple', 'embedded_chan:extended', 'embedded_chan:end']);
        expect(second.received).toEqual(['embedded_chan:simple', 'embedded_chan:extended', 'Embedded Chan:committed', 'embedded_chan:end']);
        // A notification for them would have been written before the answer to their query.
        await bystander.client.query('SELECT 1');
        expect(notifier.received).toEqual([]);
        expect(bystander.received).toEqual([]);

        // The first UNLISTENs, the second goes on listening; a LISTEN rolled back never was.
        await first.client.query('UNLISTEN embedded_chan');
        await bystander.client.query('BEGIN; LISTEN embedded_chan; ROLLBACK');
        await notifier.client.query("NOTIFY embedded_chan, 'after'");
        await eventually(() => Promise.resolve(second.received.includes('embedded_chan:after')), 30_000, 'the second listener');
        await first.client.query('SELECT 1');
        await bystander.client.query('SELECT 1');
        expect(first.received).not.toContain('embedded_chan:after');
        expect(bystander.received).toEqual([]);

        // A closed listener receives nothing more, and the session stops listening for it.
        second.client.connection.stream.destroy();
        await notifier.client.query("NOTIFY embedded_chan, 'closed'");
        await first.client.query('LISTEN embedded_chan');
        await notifier.client.query("NOTIFY embedded_chan, 'again'");
        await eventually(() => Promise.resolve(first.received.includes('embedded_chan:again')), 30_000, 'the first listener again');
        await first.client.query('UNLISTEN *');
        const listening = await eventually(
          async () => {
            const { rows } = await pool.query<{ channel: string }>('SELECT pg_listening_channels() AS channel');
            return rows.length === 0 ? rows : null;
          },
          30_000,
          'the session to stop listening',
        );
        expect(listening).toEqual([]);
        expect(first.received).toEqual(['embedded_chan:simple', 'embedded_chan:extended', 'embedded_chan:end', 'embedded_chan:again']);
      } finally {
        await Promise.all([first, second, notifier, bystander].map(({ client }) => client.end().catch(() => undefined)));
      }
    });

    it('wakes a Database.listen on the notice channel with the relay wake-up and the redelivery sweep', async () => {
      const database = new Database({ driver: { master: pool } } as unknown as DataSource);
      const payloads: string[] = [];
      const listening = await database.listen(NOTICE_CHANNEL, 'embedded-listen-test', {
        onNotification: (payload) => payloads.push(payload),
        onLost: () => undefined,
      });
      try {
        const notices = new NoticesRepository(database, new RelayWakeup(new RelayWakeupRepository(database)), new ServedContract());
        // After a booking commits (no transaction here: at once), and after a redelivery.
        notices.wakeRelayAfterCommit();
        await notices.notifyWorker(SWEEP_PAYLOAD);
        await eventually(() => Promise.resolve(payloads.length === 2), 30_000, 'both notifications');
        expect(payloads.sort()).toEqual(['', SWEEP_PAYLOAD]);
      } finally {
        await listening.close();
      }
    });
  });
});

/** The environment of the compiled apps against the embedded database, as `npm start` runs them. */
function embeddedEnv(): NodeJS.ProcessEnv {
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

/** The admin command's exit code, with its output when it failed (to say why). */
async function admin(argv: string[]): Promise<{ code: number | null; output: string }> {
  const child = Child.spawn(process.execPath, ['dist/apps/admin/src/main.js', ...argv], embeddedEnv());
  const code = await child.exited;
  return { code, output: code === 0 ? '' : child.output };
}

describe('admin commands beside npm start', () => {
  let folder: string;

  beforeAll(async () => {
    await buildApps();
    folder = await mkdtemp(join(tmpdir(), 'embedded-admin-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('record notices from several processes, each more than once: statement names never clash in the one shared session', async () => {
    expect(await admin(['migrate'])).toEqual({ code: 0, output: '' });
    const file = join(folder, 'fixture.json');
    await writeFile(file, JSON.stringify(exampleFixture('embedded-salon')));
    const loaded = Child.spawn(process.execPath, ['dist/apps/admin/src/main.js', 'fixtures', 'load', file], embeddedEnv());
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

describe('the API on the embedded PostgreSQL, as `npm start` without DATABASE_URL or REDIS_URL runs it', () => {
  let folder: string;
  let receiver: NoticeReceiver;
  let api: Child;
  let origin: string;

  beforeAll(async () => {
    await buildApps();
    folder = await mkdtemp(join(tmpdir(), 'embedded-api-'));
    receiver = await NoticeReceiver.start();
    expect(await admin(['migrate'])).toEqual({ code: 0, output: '' });
    const port = await freePort();
    api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], {
      ...embeddedEnv(),
      PORT: String(port),
      IN_PROCESS_JOBS: 'true',
      MAIL_DIR: folder,
      // An hour: a delivery that arrives sooner was queued by a NOTIFY, never by the sweep's timer.
      NOTICE_SWEEP_EVERY_MS: '3600000',
    });
    origin = `http://127.0.0.1:${port}`;
    await eventually(
      async () => {
        if (api.process.exitCode !== null) throw new Error(`The API exited:\n${api.output}`);
        return (await fetch(`${origin}/health/live`).catch(() => null))?.status === 200;
      },
      120_000,
      'the API to start',
    );
  });
  afterAll(async () => {
    await api?.kill();
    await receiver?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('delivers a redelivered notice at once: the redelivery’s NOTIFY reaches the relay’s listening connection', async () => {
    const file = join(folder, 'fixture.json');
    const business = {
      ...exampleBusiness(uniqueSlug('embedded-hooks')),
      keys: [{ ref: 'hooks', member: 'owner', name: 'Hooks', scopes: ['clients.write', 'events.read', 'webhooks.manage'] }],
      webhooks: [{ ref: 'hook', url: receiver.url('/embedded'), events: ['client.created'] }],
    } satisfies ReturnType<typeof exampleBusiness>;
    await writeFile(file, JSON.stringify({ businesses: [business] }));
    const loaded = Child.spawn(process.execPath, ['dist/apps/admin/src/main.js', 'fixtures', 'load', file], embeddedEnv());
    expect(await loaded.exited).toBe(0);
    const { key } = (JSON.parse(loaded.output) as { businesses: { salon: { keys: { hooks: { key: string } } } } }).businesses.salon.keys
      .hooks;
    const call = (path: string, body: object) =>
      fetch(`${origin}/v1/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });

    const created = await call('/clients', { name: 'Rita Lopes', phone: '+351913000654', email: 'rita@example.com', consent: true });
    expect(created.status).toBe(201);
    // The first delivery: the relay also polls the outbox every second, NOTIFY or not.
    const [first] = await eventually(() => Promise.resolve(receiver.received.length === 1 && receiver.received), 60_000, 'the notice');
    const eventId = first.headers['webhook-id'] as string;

    const again = await call(`/events/${eventId}/redeliver`, {});
    expect(again.status).toBe(202);
    // The sweep's timer is an hour away: only the redelivery's NOTIFY, received by the sweep's
    // listening connection, queues the delivery before it.
    const copies = await eventually(() => Promise.resolve(receiver.received.length === 2 && receiver.received), 60_000, 'the redelivery');
    expect(copies.map((copy) => copy.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(copies[1].body).toBe(first.body);
  });
});
