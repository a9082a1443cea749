import type { components } from './generated/openapi.js';
import { PROBLEM_CODES, type ProblemCode } from './generated/contract.js';

export type { ProblemCode } from './generated/contract.js';
export type ProblemFieldError = components['schemas']['ProblemFieldError'];

/**
 * Every answer of the API that is not a success, as one error: the problem details the API sends
 * (RFC 9457, application/problem+json) with their stable `code`. Narrow with `error.is('SLOT_TAKEN')`
 * or `isSchedulingApiError(error, 'SLOT_TAKEN')`. An answer that is not a problem of the contract
 * (a proxy's HTML error page, say) keeps its status, with `code` 'UNEXPECTED_RESPONSE'.
 */
export class SchedulingApiError<C extends ProblemCode | 'UNEXPECTED_RESPONSE' = ProblemCode | 'UNEXPECTED_RESPONSE'> extends Error {
  override readonly name = 'SchedulingApiError';
  readonly status: number;
  readonly code: C;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  /** The X-Request-Id of the answer: give it to support. */
  readonly requestId: string | null;
  /** The fields at fault (VALIDATION_FAILED), each with a JSON Pointer. */
  readonly errors: ProblemFieldError[];
  /** Seconds the API asked to wait before trying again (429, IDEMPOTENCY_IN_PROGRESS), when it said. */
  readonly retryAfter: number | null;
  /**
   * CLIENT_EXISTS only (since 1.4.0): the id of the client that already has the phone or e-mail, to
   * book it with `client: { id }`; null on other codes, and when the key lacks `clients.read`.
   */
  readonly clientId: string | null;

  constructor(fields: {
    status: number;
    code: C;
    title: string;
    detail: string;
    type?: string;
    requestId?: string | null;
    errors?: ProblemFieldError[];
    retryAfter?: number | null;
    clientId?: string | null;
  }) {
    super(`${fields.status} ${fields.code}: ${fields.detail}`);
    this.status = fields.status;
    this.code = fields.code;
    this.title = fields.title;
    this.detail = fields.detail;
    this.type = fields.type ?? 'about:blank';
    this.requestId = fields.requestId ?? null;
    this.errors = fields.errors ?? [];
    this.retryAfter = fields.retryAfter ?? null;
    this.clientId = fields.clientId ?? null;
  }

  /** Narrows the error to one code (or one of several). */
  is<K extends C>(...codes: K[]): this is SchedulingApiError<K> {
    return (codes as C[]).includes(this.code);
  }

  /** The error of a failed answer: its problem details when it has them, else its status. */
  static fromResponse(response: Response, body: unknown): SchedulingApiError {
    const retryAfterHeader = response.headers.get('retry-after');
    const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader.trim()) ? Number(retryAfterHeader) : null;
    const requestIdHeader = response.headers.get('x-request-id');
    if (isProblemBody(body)) {
      return new SchedulingApiError({
        status: body.status,
        code: body.code,
        title: body.title,
        detail: body.detail,
        type: body.type,
        requestId: body.requestId ?? requestIdHeader,
        errors: Array.isArray(body.errors) ? body.errors : [],
        retryAfter,
        clientId: typeof body.clientId === 'string' ? body.clientId : null,
      });
    }
    return new SchedulingApiError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      title: response.statusText || 'Unexpected response',
      detail: `The API answered ${response.status} without problem details${typeof body === 'string' && body !== '' ? `: ${body.slice(0, 200)}` : ''}.`,
      requestId: requestIdHeader,
      retryAfter,
    });
  }
}

/** Whether `error` is a SchedulingApiError, of one of `codes` when given. */
export function isSchedulingApiError<K extends ProblemCode | 'UNEXPECTED_RESPONSE'>(
  error: unknown,
  ...codes: K[]
): error is SchedulingApiError<K> {
  if (!(error instanceof SchedulingApiError)) return false;
  const code: string = (error as SchedulingApiError).code;
  return codes.length === 0 || (codes as string[]).includes(code);
}

/** Whether `value` is one of the contract's problem codes. */
export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && (PROBLEM_CODES as readonly string[]).includes(value);
}

interface ProblemBody {
  type?: string;
  title: string;
  status: number;
  code: ProblemCode;
  detail: string;
  requestId?: string;
  clientId?: unknown;
  errors?: ProblemFieldError[];
}

function isProblemBody(body: unknown): body is ProblemBody {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return (
    isProblemCode(candidate.code) &&
    typeof candidate.status === 'number' &&
    typeof candidate.title === 'string' &&
    typeof candidate.detail === 'string'
  );
}
