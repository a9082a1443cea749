/**
 * A statement PostgreSQL refused: its SQLSTATE and, for a violated constraint, the constraint's
 * name. The driver's error stays as the (non-enumerable) cause: its detail can hold the row's
 * values (a phone, an e-mail), so a log line that serialises this error never shows them.
 */
export class StatementFailedError extends Error {
  /** PostgreSQL's SQLSTATE, e.g. 23505 or 40P01. */
  readonly sqlState: string | undefined;
  readonly constraint: string | undefined;

  constructor(
    /** The declared name of the statement (never its parameters: they may be personal data). */
    readonly statementName: string,
    driverError: Error,
  ) {
    super(`Statement ${statementName} failed: ${driverError.message}`, { cause: driverError });
    this.name = 'StatementFailedError';
    const { code, constraint } = driverError as { code?: unknown; constraint?: unknown };
    this.sqlState = typeof code === 'string' ? code : undefined;
    this.constraint = typeof constraint === 'string' ? constraint : undefined;
  }
}

/** The SQLSTATE of a failed statement, if that is what the error is. */
export function sqlStateOf(error: unknown): string | undefined {
  return error instanceof StatementFailedError ? error.sqlState : undefined;
}
