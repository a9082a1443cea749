import type { ErrorCode } from './error-code.js';

export interface FieldError {
  /** JSON Pointer to the offending value, e.g. /client/phone or /query/limit. */
  path: string;
  message: string;
}

/**
 * Facts a refusal carries besides its code and detail, shown as members of the problem body
 * (docs/design-record.md#d23): `clientId`, the existing client of a CLIENT_EXISTS, shown only to a
 * key that may read clients.
 */
export interface ProblemMembers {
  clientId?: string;
}

/**
 * A rule of the product said no. Services throw it; only the HTTP problem filter and the
 * admin command line know how to present it.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly fieldErrors: FieldError[] = [],
    /** Seconds the caller should wait before trying again, where that helps. */
    readonly retryAfterSeconds?: number,
    readonly members: ProblemMembers = {},
  ) {
    // A refusal is the product's answer, not a fault: nothing reads its stack (the problem filter
    // logs stacks of unexpected errors only), and capturing one was about a twentieth of what
    // refusing a request costs (docs/performance.md, "Seventh look").
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('NOT_FOUND', `${what} was not found in this business.`);

export const validationFailed = (errors: FieldError[]): DomainError =>
  new DomainError(
    'VALIDATION_FAILED',
    errors.length === 1 ? `${errors[0].path}: ${errors[0].message}` : `${errors.length} fields are invalid.`,
    errors,
  );
