import { jest } from '@jest/globals';
import pg from 'pg';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The statement layer's one transaction scope and its one option (libs/database/src/database.ts):
 * a transaction opened with planCacheMode runs its statements under that setting, and only
 * itself; a statement declared planEachCall is never kept prepared on the connection.
 */
let context: TestContext;
let database: Database;

const PLAN_CACHE_MODE = defineStatement<[], { mode: string }>({
  name: 'test_layer_plan_cache_mode',
  text: "SELECT current_setting('plan_cache_mode') AS mode",
});

const PREPARED_ECHO = defineStatement<[value: number], { echo: number }>({
  name: 'test_layer_prepared_echo',
  text: 'SELECT $1::int AS echo',
});

const PLANNED_EACH_CALL = defineStatement<[value: number], { echo: number }>({
  name: 'test_layer_planned_each_call',
  text: 'SELECT $1::int AS echo /* planned each call */',
  planEachCall: true,
});

/** How many statements with this text the connection keeps prepared (an unnamed one is not listed). */
const KEPT = defineStatement<[text: string], { kept: number }>({
  name: 'test_layer_kept_prepared',
  text: 'SELECT count(*)::int AS kept FROM pg_prepared_statements WHERE statement = $1',
});

beforeAll(async () => {
  context = await startTestContext();
  database = context.app.get(Database);
});
afterAll(() => context.close());

describe('Database.transactional with planCacheMode', () => {
  it('runs the transaction’s statements with plan_cache_mode force_generic_plan, sent with its BEGIN, and leaves the next transaction on the same connection as it was', async () => {
    const query = jest.spyOn(pg.Client.prototype, 'query');
    try {
      const inside = await database.transactional(() => database.one(PLAN_CACHE_MODE, []), { planCacheMode: 'force_generic_plan' });
      expect(inside).toEqual({ mode: 'force_generic_plan' });
      const begin = query.mock.calls.findIndex(([text]) => text === 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan');
      expect(begin).toBeGreaterThanOrEqual(0);
      const opened = query.mock.contexts[begin];
      // pg's pool lends the connection released last: this transaction runs on the same one.
      const after = await database.transactional(() => database.one(PLAN_CACHE_MODE, []));
      expect(query.mock.contexts.at(-1)).toBe(opened);
      expect(after).toEqual({ mode: 'auto' });
    } finally {
      query.mockRestore();
    }
  });

  it('refuses the option from work that joins a transaction opened without it', async () => {
    await expect(
      database.transactional(() =>
        database.transactional(() => database.one(PLAN_CACHE_MODE, []), { planCacheMode: 'force_generic_plan' }),
      ),
    ).rejects.toThrow(/must be the outermost one/);
    // Joining one opened with it is fine.
    expect(
      await database.transactional(
        () => database.transactional(() => database.one(PLAN_CACHE_MODE, []), { planCacheMode: 'force_generic_plan' }),
        {
          planCacheMode: 'force_generic_plan',
        },
      ),
    ).toEqual({ mode: 'force_generic_plan' });
  });
});

describe('a statement declared planEachCall', () => {
  it('answers as a prepared one does, but is not kept prepared on the connection', async () => {
    await database.transactional(async () => {
      expect(await database.one(PREPARED_ECHO, [7])).toEqual({ echo: 7 });
      expect(await database.one(PLANNED_EACH_CALL, [8])).toEqual({ echo: 8 });
      expect(await database.one(PLANNED_EACH_CALL, [9])).toEqual({ echo: 9 });
      expect(await database.one(KEPT, [PREPARED_ECHO.text])).toEqual({ kept: 1 });
      expect(await database.one(KEPT, [PLANNED_EACH_CALL.text])).toEqual({ kept: 0 });
    });
  });
});

const INSERT_ROW = defineStatement<[tag: string, value: number]>({
  name: 'test_layer_insert_row',
  text: 'INSERT INTO test_layer_rows (tag, value) VALUES ($1, $2)',
});

/** Fails with division_by_zero when given 0. */
const DIVIDE = defineStatement<[by: number], { quotient: number }>({
  name: 'test_layer_divide',
  text: 'SELECT 12 / $1::int AS quotient',
});

describe('statements in one round trip', () => {
  beforeAll(async () => {
    await context.sql.query('CREATE TABLE IF NOT EXISTS test_layer_rows (tag text NOT NULL, value int NOT NULL)');
  });
  const rowsTagged = async (tag: string) =>
    (await context.sql.query<{ value: number }[]>('SELECT value FROM test_layer_rows WHERE tag = $1 ORDER BY value', [tag])).map(
      (row) => row.value,
    );

  it('sendTogether gives each statement’s rows in order, in a transaction or on a pooled connection', async () => {
    const together = () =>
      database.sendTogether(
        { statement: PREPARED_ECHO, params: [1] },
        { statement: DIVIDE, params: [4] },
        { statement: PREPARED_ECHO, params: [3] },
      );
    expect(await together()).toEqual([[{ echo: 1 }], [{ quotient: 3 }], [{ echo: 3 }]]);
    expect(await database.transactional(together)).toEqual([[{ echo: 1 }], [{ quotient: 3 }], [{ echo: 3 }]]);
  });

  it('sendTogether throws the first failure, and the transaction keeps nothing', async () => {
    await expect(
      database.transactional(() =>
        database.sendTogether(
          { statement: INSERT_ROW, params: ['together', 1] },
          { statement: DIVIDE, params: [0] },
          { statement: INSERT_ROW, params: ['together', 2] },
        ),
      ),
    ).rejects.toThrow(/test_layer_divide.*division by zero/);
    expect(await rowsTagged('together')).toEqual([]);
    // The connection is usable afterwards.
    expect(await database.transactional(() => database.one(PREPARED_ECHO, [5]))).toEqual({ echo: 5 });
  });

  it('executeLast commits its write with the transaction', async () => {
    await database.transactional(async () => {
      await database.execute(INSERT_ROW, ['last-kept', 1]);
      await database.executeLast(INSERT_ROW, ['last-kept', 2]);
    });
    expect(await rowsTagged('last-kept')).toEqual([1, 2]);
  });

  it('executeLast’s failure fails the commit with its own error, and nothing of the transaction is kept', async () => {
    const afterCommit = jest.fn();
    await expect(
      database.transactional(async () => {
        await database.execute(INSERT_ROW, ['last-failed', 1]);
        database.afterCommit(afterCommit);
        await database.executeLast(DIVIDE, [0]);
      }),
    ).rejects.toThrow(/test_layer_divide.*division by zero/);
    expect(await rowsTagged('last-failed')).toEqual([]);
    expect(afterCommit).not.toHaveBeenCalled();
    expect(await database.transactional(() => database.one(PREPARED_ECHO, [6]))).toEqual({ echo: 6 });
  });

  it('refuses a statement sent after the last one, and rolls back', async () => {
    await expect(
      database.transactional(async () => {
        await database.executeLast(INSERT_ROW, ['after-last', 1]);
        await database.execute(INSERT_ROW, ['after-last', 2]);
      }),
    ).rejects.toThrow(/after the transaction's last one/);
    expect(await rowsTagged('after-last')).toEqual([]);
  });

  it('work that throws after executeLast rolls back its write', async () => {
    await expect(
      database.transactional(async () => {
        await database.executeLast(INSERT_ROW, ['thrown-after-last', 1]);
        throw new Error('refused after the last statement');
      }),
    ).rejects.toThrow('refused after the last statement');
    expect(await rowsTagged('thrown-after-last')).toEqual([]);
  });
});

/** Every kind of column the service reads, and none when asked for none. */
const TYPED_ROWS = defineStatement<
  [count: number],
  { n: number; at: Date; doc: { n: number }; tags: string[]; missing: string | null; big: string }
>({
  name: 'test_layer_typed_rows',
  text: `SELECT g AS n, timestamptz '2035-05-01T08:00:00Z' + g * interval '1 hour' AS at, jsonb_build_object('n', g) AS doc,
       ARRAY['a', g::text] AS tags, NULL::text AS missing, (g * 10000000000)::bigint AS big
  FROM generate_series(1, $1::int) AS g`,
});

const typedRows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    n: i + 1,
    at: new Date(Date.UTC(2035, 4, 1, 8 + i + 1)),
    doc: { n: i + 1 },
    tags: ['a', String(i + 1)],
    missing: null,
    big: String((i + 1) * 10_000_000_000),
  }));

describe('a prepared statement’s rows', () => {
  /** Describe messages of a portal (a prepared statement's execution) written while `work` ran. */
  async function describes<T>(work: () => Promise<T>): Promise<{ result: T; sent: number }> {
    const describe = jest.spyOn(pg.Connection.prototype, 'describe');
    try {
      const result = await work();
      return { result, sent: describe.mock.calls.filter(([message]) => (message as { type: string }).type === 'P').length };
    } finally {
      describe.mockRestore();
    }
  }

  it('are described by PostgreSQL once per connection, and read the same every time after', async () => {
    const { result, sent } = await describes(() =>
      database.transactional(async () => {
        // First with no row at all: its description is the one kept.
        const answers = [await database.rows(TYPED_ROWS, [0])];
        for (const count of [1, 3, 2]) answers.push(await database.rows(TYPED_ROWS, [count]));
        return answers;
      }),
    );
    expect(result).toEqual([[], typedRows(1), typedRows(3), typedRows(2)]);
    expect(result[2][0].at).toBeInstanceOf(Date);
    expect(sent).toBe(1);
  });

  it('read right when executions of one statement are written together, before and after its description arrived', async () => {
    // A statement of its own, so that no connection has described it yet.
    const cold = defineStatement<[count: number], ReturnType<typeof typedRows>[number]>({
      name: 'test_layer_typed_rows_together',
      text: `${TYPED_ROWS.text} /* together */`,
    });
    const { result, sent } = await describes(() =>
      database.transactional(async () => {
        const first = await database.sendTogether(
          { statement: cold, params: [2] },
          { statement: cold, params: [0] },
          { statement: cold, params: [3] },
        );
        const after = await database.sendTogether(
          { statement: cold, params: [1] },
          { statement: PREPARED_ECHO, params: [4] },
          { statement: cold, params: [2] },
        );
        return [...first, ...after];
      }),
    );
    expect(result).toEqual([typedRows(2), [], typedRows(3), typedRows(1), [{ echo: 4 }], typedRows(2)]);
    // The three written before any description came each asked for it, and none after (the echo
    // may be new on this connection too: one more).
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThanOrEqual(4);
  });

  it('a value that cannot be sent fails its own execution, and the connection goes on', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await database.transactional(async () => {
      expect(await database.one(PREPARED_ECHO, [1])).toEqual({ echo: 1 });
      await expect(database.one(PREPARED_ECHO, [circular as never])).rejects.toThrow(/circular/i);
    });
    expect(await database.transactional(() => database.one(PREPARED_ECHO, [2]))).toEqual({ echo: 2 });
  });
});
