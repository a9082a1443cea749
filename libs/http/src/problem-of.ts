import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import { DomainError, type FieldError, type ProblemMembers } from '#core/errors/domain-error.js';
import type { ErrorCode } from '#core/errors/error-code.js';
import { isConnectionWaitTimeout } from '#database/connection-wait.js';
import type { ApiRequest } from './api-request.js';
import { codeForHttpStatus, PROBLEM_TYPES } from './problem.js';

/** What the answer to a thrown value says; `unexpected` ones are logged, their message never shown. */
export interface Problem {
  code: ErrorCode;
  detail: string;
  errors: FieldError[];
  retryAfter?: number;
  /** What the body carries besides, already limited to what the request's key may see. */
  members?: ProblemMembers;
  unexpected: boolean;
}

/** The refusal's members the key may see: an existing client's id only with clients.read (docs/design-record.md#d23). */
function membersFor(members: ProblemMembers, req: ApiRequest): ProblemMembers {
  if (members.clientId === undefined || req.apiKey?.scopes.includes('clients.read') !== true) return {};
  return { clientId: members.clientId };
}

/**
 * How long a client is asked to wait when no database connection came in time: the connections
 * in use end within seconds (a statement's own limit is 15 s), and a client that comes back at
 * once adds to the queue it was refused from.
 */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The problem every thrown value is answered with: the filter and the idempotent replay store agree on it. */
export function problemOf(exception: unknown, req: ApiRequest): Problem {
  if (isConnectionWaitTimeout(exception)) {
    // Busy, not broken (docs/design-record.md#d24): a write rolled back, and the same request may be sent again.
    return {
      code: 'SERVICE_UNAVAILABLE',
      detail: `The server is too busy to answer now (no database connection came in time); retry after ${SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS} s.`,
      errors: [],
      retryAfter: SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS,
      unexpected: false,
    };
  }
  if (exception instanceof DomainError) {
    return {
      code: exception.code,
      detail: exception.detail,
      errors: exception.fieldErrors,
      retryAfter: exception.retryAfterSeconds,
      members: membersFor(exception.members, req),
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const code = codeForHttpStatus(exception.getStatus());
    if (PROBLEM_TYPES[code].status < 500) return { code, detail: detailOf(exception, code, req), errors: [], unexpected: false };
  }
  return {
    code: 'INTERNAL',
    detail: `Something went wrong on our side. Quote request id ${req.requestId} when reporting it.`,
    errors: [],
    unexpected: true,
  };
}

/**
 * The exception's own message, which its thrower wrote for the caller; one that only repeats the
 * status's name (`new ForbiddenException()`) says less than the code's title. A 404 without a
 * message of its own, or with no route matched (Nest's "Cannot GET /x"), names the path instead.
 */
function detailOf(exception: HttpException, code: ErrorCode, req: ApiRequest): string {
  const response = exception.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  const given = Array.isArray(message) ? message.map(String).join('; ') : typeof message === 'string' ? message : '';
  const own = given.length > 0 && given !== STATUS_CODES[exception.getStatus()];
  if (code === 'NOT_FOUND' && (!own || req.route === undefined)) return `No operation at ${req.method} ${req.path}.`;
  return own ? given : PROBLEM_TYPES[code].title;
}
