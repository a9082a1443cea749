/**
 * What pg's pool answers when no connection came within its connectionTimeoutMillis
 * (DATABASE_CONNECT_TIMEOUT_MS): every connection of the pool stayed in use, or a new one did not
 * open in time. pg gives these errors no code, only their messages (pg-pool's index.js);
 * connection-wait.spec.ts holds them to the installed pg.
 */
const NO_CONNECTION_IN_TIME = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

/**
 * No connection came in time because the request's business held its whole share of the pool
 * for longer than DATABASE_CONNECT_TIMEOUT_MS (docs/design-record.md#pool-share-per-business):
 * answered as pg's own wait is, the same 503.
 */
export class ShareWaitTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`No database connection within the business's share of the pool came within ${timeoutMs} ms.`);
    this.name = 'ShareWaitTimeoutError';
  }
}

/** Whether the error says that no database connection came in time (the service is busy, not broken). */
export function isConnectionWaitTimeout(error: unknown): boolean {
  return error instanceof ShareWaitTimeoutError || (error instanceof Error && NO_CONNECTION_IN_TIME.has(error.message));
}
