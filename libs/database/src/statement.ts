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
  readonly kind: 'prepared';
  /** Unique among every declared statement (a unit test checks it). */
  readonly name: string;
  readonly text: string;
  /** Never set: carries the parameter and row types. */
  readonly types?: { params: P; row: R };
}

/**
 * Several statements sent in one round trip with the simple protocol, which takes no parameters:
 * the layer writes each `$n` of the text as an escaped literal (escapeLiteral in database.ts, the
 * one place that does it). R is the tuple of the row types of its statements, in order.
 *
 * A statement of the batch that PostgreSQL would plan (a query, an INSERT) is best a declared
 * statement run as `EXECUTE <its name>(<arguments>)` and listed in `executes`: the layer prepares
 * it once per connection, so it is planned as seldom as one sent on its own, where a statement
 * written out in the batch is parsed and planned on every call.
 */
export interface BatchStatement<P extends StatementParams, R extends readonly unknown[]> {
  readonly kind: 'batch';
  readonly name: string;
  readonly text: string;
  /** The declared statements the text runs with EXECUTE, by their declared names. */
  readonly executes: readonly Statement<StatementParams, unknown>[];
  readonly types?: { params: P; rows: R };
}

export type DeclaredStatement = Statement<StatementParams, unknown> | BatchStatement<StatementParams, readonly unknown[]>;

const declared: DeclaredStatement[] = [];

/** Every statement declared in this process so far, duplicates included, for the uniqueness test. */
export function declaredStatements(): readonly DeclaredStatement[] {
  return declared;
}

const NAME = /^[a-z][a-z0-9_]{0,39}$/;

function register<S extends DeclaredStatement>(statement: S): S {
  // Short, plain names: the layer adds a per-process token and a connection number, and
  // PostgreSQL cuts names at 63 bytes.
  if (!NAME.test(statement.name)) throw new Error(`Statement name ${JSON.stringify(statement.name)} must match ${String(NAME)}.`);
  declared.push(statement);
  return statement;
}

/** Declares a statement: `defineStatement<[businessId: string, id: string], ClientRow>({ name, text })`. */
export function defineStatement<P extends StatementParams, R = never>(declaration: { name: string; text: string }): Statement<P, R> {
  return register({ kind: 'prepared', name: declaration.name, text: declaration.text });
}

/** `EXECUTE name(` in a batch's text: the name of a declared statement (see BatchStatement). */
export const EXECUTED = /\bEXECUTE ([a-z][a-z0-9_]*)\(/g;

/** Declares statements sent together in one round trip (see BatchStatement). */
export function defineBatch<P extends StatementParams, R extends readonly unknown[]>(declaration: {
  name: string;
  text: string;
  executes?: readonly Statement<StatementParams, unknown>[];
}): BatchStatement<P, R> {
  const executes = declaration.executes ?? [];
  for (const [, executed] of declaration.text.matchAll(EXECUTED)) {
    if (!executes.some((statement) => statement.name === executed)) {
      throw new Error(`Batch ${declaration.name} executes ${executed}, which its executes list does not declare.`);
    }
  }
  return register({ kind: 'batch', name: declaration.name, text: declaration.text, executes });
}

/** A statement with its parameters: what a repository runs, and a plan test can EXPLAIN. */
export interface BoundStatement<P extends StatementParams, R> {
  statement: Statement<P, R>;
  params: P;
}
