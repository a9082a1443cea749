import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The pool keeps the connections it has opened (docs/design-record.md#d24, "The pool keeps its
 * connections"). pg's pool used to close a connection idle for 10 s, so a burst after a quiet
 * spell (a hostile business starting, its pings and deliveries failing at the same instant)
 * waited for new connections to be opened, and every request queued behind it waited too (bench
 * S9). What waited is what this test looks at: which server processes answer a second burst,
 * after a spell longer than that idle time; every one must be a connection the first burst
 * opened, none a new one.
 */
let context: TestContext;
let database: Database;

/** The backend that answers, held a moment so that a burst needs a connection per statement. */
const BACKEND = defineStatement<[], { pid: number }>({
  name: 'test_pool_backend_pid',
  text: 'SELECT pg_backend_pid() AS pid, pg_sleep(0.2)::text AS slept',
});

/** Every server process connected to the test database now. */
const CONNECTED = defineStatement<[], { pid: number }>({
  name: 'test_pool_connected_pids',
  text: 'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
});

/** pg's pool default idle time (pg-pool's idleTimeoutMillis), which the pool used to keep. */
const FORMER_IDLE_MS = 10_000;
const BURST = 6;

beforeAll(async () => {
  context = await startTestContext();
  database = context.app.get(Database);
});
afterAll(() => context.close());

const burst = async (): Promise<number[]> =>
  (await Promise.all(Array.from({ length: BURST }, () => database.one(BACKEND, [])))).map((row) => row.pid);

describe('the connection pool after a quiet spell', () => {
  it('answers a burst with the connections it already had: no request waits for a new one', async () => {
    expect(new Set(await burst()).size).toBe(BURST);
    const connected = new Set((await database.rows(CONNECTED, [])).map((row) => row.pid));

    await new Promise((done) => setTimeout(done, FORMER_IDLE_MS + 1_500));

    const second = await burst();
    expect(second.filter((pid) => !connected.has(pid))).toEqual([]);
  }, 30_000);
});
