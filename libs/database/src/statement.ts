/**
 * One way to run SQL: every statement the service sends is declared once, here or beside its
 * repository, with a unique name, its text, the tuple of its parameters and the type of its rows,
 * and runs through `Database` (database.ts) on the ambient transaction. A declared statement runs
 * as a named prepared statement: PostgreSQL parses and plans it once per connection, where an
 * unnamed one is planned on every call (for the booking's one-trip read, planning cost four times
 * the run). Its text is fixed: values travel only as parameters, never pasted into the SQL.
 */

/** Parameters of a statement, in placeholder order ($1, $2, …). */
export type StatementParams = readonly unknown[];

/** A statement sent with the extended protocol: parsed once per connection, then bound and run. */
export interface Statement<P extends StatementParams, R> {
  /** Unique among every declared statement (a unit test checks it). */
  readonly name: string;
  readonly text: string;
  /** Sent unnamed, and so planned for its values on every call (see defineStatement). */
  readonly planEachCall: boolean;
  /** Never set: carries the parameter and row types. */
  readonly types?: { params: P; row: R };
}

const declared: Statement<StatementParams, unknown>[] = [];

/** Every statement declared in this process so far, duplicates included, for the uniqueness test. */
export function declaredStatements(): readonly Statement<StatementParams, unknown>[] {
  return declared;
}

const NAME = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * Declares a statement: `defineStatement<[businessId: string, id: string], ClientRow>({ name, text })`.
 *
 * `planEachCall` is for a statement whose table swings from empty to large: a plan cached while
 * the table was empty scans it whole once it has grown, until autovacuum analyses it (2 ms per
 * read of idempotency_records in the bench). Such a statement is sent unnamed, its text parsed
 * and planned on every call; the name still identifies it in errors.
 */
export function defineStatement<P extends StatementParams, R = never>(declaration: {
  name: string;
  text: string;
  planEachCall?: boolean;
}): Statement<P, R> {
  // Short, plain names: the layer adds a per-process token and a connection number, and
  // PostgreSQL cuts names at 63 bytes.
  if (!NAME.test(declaration.name)) throw new Error(`Statement name ${JSON.stringify(declaration.name)} must match ${String(NAME)}.`);
  const statement = { name: declaration.name, text: declaration.text, planEachCall: declaration.planEachCall === true };
  declared.push(statement);
  return statement;
}

/** A statement with its parameters: what a repository runs, and a plan test can EXPLAIN. */
export interface BoundStatement<P extends StatementParams, R> {
  statement: Statement<P, R>;
  params: P;
}
