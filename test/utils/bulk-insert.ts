import type { TestSql } from './test-context.js';

/**
 * A test's bulk setup, written directly: thousands of rows in one set-based statement, where the
 * fixture loader writes a row at a time (minutes), so with no statement timeout (a loaded machine
 * may need longer than a request's), and with the instants it gives kept rather than the load's one
 * change-clock stamp: rows spread over time, as a business's history is (docs/design-record.md#d27).
 */
export async function bulkInsert(db: TestSql, text: string, params: unknown[]): Promise<void> {
  await db.transaction(async (sql) => {
    await sql.query('SET LOCAL statement_timeout = 0');
    await sql.query(`SELECT set_config('app.given_stamps', 'on', true)`);
    await sql.query(text, params);
  });
}
