import { jest } from '@jest/globals';
import pg from 'pg';
import { Database } from '#database/database.js';
import { defineBatch, defineStatement } from '#database/statement.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * A batch EXECUTEs declared statements that each connection prepares once (BatchStatement in
 * libs/database/src/statement.ts): the first batch on a connection carries the PREPARE, the next
 * ones only the EXECUTE, and a batch that fails leaves the connection able to prepare again.
 */
let context: TestContext;
let database: Database;

const DOUBLED = defineStatement<[value: number], { doubled: number }>({
  name: 'test_batch_doubled',
  text: 'SELECT $1::int * 2 AS doubled',
});

const DOUBLE_THEN_ECHO = defineBatch<[value: number, echo: string], [{ doubled: number }, { echo: string }]>({
  name: 'test_batch_double_echo',
  text: `EXECUTE test_batch_doubled($1);
SELECT $2::text AS echo`,
  executes: [DOUBLED],
});

const TRIPLED = defineStatement<[value: number], { tripled: number }>({
  name: 'test_batch_tripled',
  text: 'SELECT $1::int * 3 AS tripled',
});

const TRIPLE = defineBatch<[value: number], [{ tripled: number }]>({
  name: 'test_batch_triple',
  text: 'EXECUTE test_batch_tripled($1)',
  executes: [TRIPLED],
});

// Its PREPARE runs (PREPARE is not undone by a rollback), then the batch fails.
const TRIPLE_THEN_FAIL = defineBatch<[value: number], [{ tripled: number }, never]>({
  name: 'test_batch_triple_fail',
  text: `EXECUTE test_batch_tripled($1);
SELECT 1 / 0`,
  executes: [TRIPLED],
});

beforeAll(async () => {
  context = await startTestContext();
  database = context.app.get(Database);
});
afterAll(() => context.close());

/** The simple queries `work` sent, on any connection. */
async function sentTexts(work: () => Promise<unknown>): Promise<string[]> {
  const query = jest.spyOn(pg.Client.prototype, 'query');
  try {
    await work();
    return query.mock.calls.map(([statement]) => statement).filter((statement): statement is string => typeof statement === 'string');
  } finally {
    query.mockRestore();
  }
}

describe('a batch that EXECUTEs declared statements', () => {
  it('prepares each once per connection, and answers as if the statements were written out', async () => {
    await database.transactional(async () => {
      const first = await sentTexts(async () => {
        expect(await database.batch(DOUBLE_THEN_ECHO, [21, "it's"])).toEqual([[{ doubled: 42 }], [{ echo: "it's" }]]);
      });
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(
        /^PREPARE test_batch_doubled_\w+ AS SELECT \$1::int \* 2 AS doubled;\nBEGIN;\nEXECUTE test_batch_doubled_\w+\(21\);/,
      );

      const second = await sentTexts(async () => {
        expect(await database.batch(DOUBLE_THEN_ECHO, [5, 'EXECUTE test_batch_doubled(1)'])).toEqual([
          [{ doubled: 10 }],
          // A literal that looks like an EXECUTE is a value, left as it is.
          [{ echo: 'EXECUTE test_batch_doubled(1)' }],
        ]);
      });
      expect(second).toHaveLength(1);
      expect(second[0]).not.toContain('PREPARE');
    });
  });

  it('prepares again, under a new name, after a batch that prepared and then failed', async () => {
    // pg's pool lends the connection released last: these run on one connection.
    await expect(database.transactional(() => database.batch(TRIPLE_THEN_FAIL, [2]))).rejects.toThrow(/division by zero/);
    const again = await sentTexts(async () => {
      await database.transactional(async () => {
        expect(await database.batch(TRIPLE, [3])).toEqual([[{ tripled: 9 }]]);
      });
    });
    expect(again[0]).toMatch(/^PREPARE test_batch_tripled_[0-9a-f]{8}_\d+_b2 AS /);
    for (let i = 0; i < 12; i += 1) {
      await database.transactional(async () => {
        expect(await database.batch(TRIPLE, [i])).toEqual([[{ tripled: 3 * i }]]);
      });
    }
  });

  it('fails the commit of a batch queued with a value it cannot write, and leaves no transaction open on the connection', async () => {
    const OWN_TRANSACTION = defineBatch<[], [{ own: boolean }]>({
      name: 'test_batch_own_transaction',
      text: 'SELECT now() = statement_timestamp() AS own',
    });
    await expect(
      database.transactional(async () => {
        await database.batch(DOUBLE_THEN_ECHO, [1, 'begun']);
        database.atCommit(TRIPLE, [{ not: 'a literal' } as unknown as number]);
      }),
    ).rejects.toThrow(/A batch takes/);
    // pg's pool lends the connection released last: a transaction left open there would show as
    // a now() older than the statement.
    expect(await database.batch(OWN_TRANSACTION, [])).toEqual([[{ own: true }]]);
  });

  it('refuses a batch whose text EXECUTEs a statement it does not declare', () => {
    expect(() => defineBatch({ name: 'test_batch_undeclared', text: 'EXECUTE test_batch_doubled(1)' })).toThrow(/does not declare/);
  });
});
