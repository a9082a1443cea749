import type pg from 'pg';
import { KnownShapeQuery } from './known-shape-query.js';

/**
 * Sends one query on a connection and gives its answer: pg's callback form inside a promise of our
 * own, never pg's promise form. In its promise form pg makes the query first and gives it the
 * callback that settles the promise afterwards; with that, a sixth to a quarter of what every
 * query allocates (the query, its row description, its rows) is kept through two young-generation
 * collections and moved to the old generation, which only a major collection empties, though none
 * of it outlives its query. In this form next to none of it is (docs/design-record.md, "Per-request cost": "A query's objects die young").
 */
export function queryOn(connection: pg.ClientBase, query: pg.QueryConfig | string): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result));
    // A prepared statement's rows are described once per connection (known-shape-query.ts).
    if (typeof query !== 'string' && query.name !== undefined) {
      // pg's types give a query object no callback; pg itself takes one (client.js), as here.
      (connection as unknown as { query(query: KnownShapeQuery, callback: typeof settle): void }).query(new KnownShapeQuery(query), settle);
    } else connection.query(query, settle);
  });
}
