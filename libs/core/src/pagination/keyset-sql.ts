import { toTimestampLiteral } from './epoch-micros.js';
import type { KeysetPosition } from './keyset-position.js';

/** SQL text and its parameters, as a repository runs it (and a test can EXPLAIN it). */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

/** Collects a query's parameters, naming each by its placeholder ($1, $2, …) as it is added. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** An instant, passed as text PostgreSQL reads back to the microsecond. */
  addTimestamp(micros: bigint): string {
    return `${this.add(toTimestampLiteral(micros))}::timestamptz`;
  }
}

/**
 * The exact value of a timestamp column as text of whole microseconds since the epoch
 * (extract returns an exact numeric), to be carried in a cursor.
 */
export const positionOf = (column: string): string => `(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * Rows strictly after a position, written as one row-value comparison so that PostgreSQL uses it
 * as a bound of the (…, time, id) index instead of filtering row by row.
 */
export const keysetAfter = (timeColumn: string, idColumn: string, position: KeysetPosition, params: SqlParams): string =>
  `(${timeColumn}, ${idColumn}) > (${params.addTimestamp(position.micros)}, ${params.add(position.id)}::uuid)`;
