import type { ErrorCode } from '#core/errors/error-code.js';
import type { FieldError, ProblemMembers } from '#core/errors/domain-error.js';

/** HTTP status and title of every problem code: the one place that knows (docs/design-record.md#d3). */
export const PROBLEM_TYPES: Record<ErrorCode, { status: number; title: string }> = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  IDEMPOTENCY_KEY_INVALID: { status: 400, title: 'The Idempotency-Key header is missing or invalid' },
  CURSOR_INVALID: { status: 400, title: 'The cursor is not valid for this query' },
  API_KEY_INVALID: { status: 401, title: 'The API key is missing, invalid or revoked' },
  PLAN_INTEGRATIONS: { status: 402, title: 'The business plan has no integrations' },
  API_SCOPE_MISSING: { status: 403, title: 'The API key lacks the scope of this operation' },
  OPERATION_REFUSED: { status: 403, title: 'The operation is refused by a rule of the business' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  SLOT_TAKEN: { status: 409, title: 'The slot is taken' },
  SLOT_UNAVAILABLE: { status: 409, title: 'The slot is not available for booking' },
  CLIENT_EXISTS: { status: 409, title: 'The client already exists' },
  APPOINTMENT_NOT_ACTIVE: { status: 409, title: 'The appointment is no longer active' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, title: 'The Idempotency-Key was used with a different request' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, title: 'A request with this Idempotency-Key is still being processed' },
  CONFLICT: { status: 409, title: 'The request conflicts with the current state' },
  WEBHOOK_URL_REFUSED: { status: 400, title: 'The webhook address is refused' },
  WEBHOOK_ENDPOINT_LIMIT: { status: 409, title: 'The business has as many webhook endpoints as it may' },
  KEY_LIMIT: { status: 409, title: 'The business has as many active keys as it may' },
  KEY_NOT_ACTIVE: { status: 409, title: 'The key is revoked or expired' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be application/json' },
  API_RATE_LIMIT: { status: 429, title: 'Too many requests' },
  INTERNAL: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The service is too busy to answer now' },
};

/**
 * The code that answers an HttpException (Nest's own, or one a module throws) of each status.
 * The answer's status is the code's, from PROBLEM_TYPES: a status without a code of its own
 * takes the nearest one (405 and 410 are NOT_FOUND's 404, 422 is VALIDATION_FAILED's 400).
 */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'API_KEY_INVALID',
  402: 'PLAN_INTEGRATIONS',
  // Only the scope guard answers API_SCOPE_MISSING (a DomainError); a 403 a module throws is its own rule's refusal.
  403: 'OPERATION_REFUSED',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  412: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'API_RATE_LIMIT',
};

/** Any other 4xx is a request this API cannot serve as sent; any 5xx is our fault. */
export function codeForHttpStatus(status: number): ErrorCode {
  return HTTP_EXCEPTION_CODES[status] ?? (status >= 400 && status < 500 ? 'VALIDATION_FAILED' : 'INTERNAL');
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  requestId: string;
  clientId?: string;
  errors?: FieldError[];
}

export function problemBody(
  code: ErrorCode,
  detail: string,
  requestId: string,
  errors: FieldError[] = [],
  members: ProblemMembers = {},
): ProblemBody {
  const { status, title } = PROBLEM_TYPES[code];
  return {
    type: `https://docs.scheduling.example/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title,
    status,
    code,
    detail,
    requestId,
    ...(members.clientId === undefined ? {} : { clientId: members.clientId }),
    ...(errors.length > 0 ? { errors } : {}),
  };
}
