import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '#core/errors/domain-error.js';
import type { ErrorCode } from '#core/errors/error-code.js';
import type { ApiRequest } from './api-request.js';
import { PreparedResponse } from './prepared-response.js';
import { problemBody, PROBLEM_TYPES } from './problem.js';

/** Statuses Nest itself raises (unknown route, wrong method) and the codes they become. */
const HTTP_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Every error leaves as application/problem+json (RFC 9457, D3); never a stack or SQL.
 * Prepared responses (idempotent replays) are written here too, exactly as stored.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<Response>();
    if (exception instanceof PreparedResponse) {
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
      const { status, contentType, body } = exception.response;
      res.status(status).type(contentType).send(body);
      return;
    }
    const { code, detail, errors, retryAfter } = this.describe(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    const body = problemBody(code, detail, req.requestId, errors);
    res.status(PROBLEM_TYPES[code].status).type('application/problem+json').send(JSON.stringify(body));
  }

  private describe(exception: unknown, req: ApiRequest) {
    if (exception instanceof DomainError) {
      return {
        code: exception.code,
        detail: exception.detail,
        errors: exception.fieldErrors,
        retryAfter: exception.retryAfterSeconds,
      };
    }
    if (exception instanceof HttpException) {
      const code = HTTP_STATUS_CODES[exception.getStatus()];
      if (code === 'NOT_FOUND') {
        return { code, detail: `No operation at ${req.method} ${req.path}.`, errors: [], retryAfter: undefined };
      }
      if (code) return { code, detail: PROBLEM_TYPES[code].title, errors: [], retryAfter: undefined };
    }
    this.logger.error(
      { requestId: req.requestId, err: exception instanceof Error ? exception.stack : String(exception) },
      `Unhandled error on ${req.method} ${req.path} (request ${req.requestId})`,
    );
    return {
      code: 'INTERNAL' as const,
      detail: `Something went wrong on our side. Quote request id ${req.requestId} when reporting it.`,
      errors: [],
      retryAfter: undefined,
    };
  }
}
