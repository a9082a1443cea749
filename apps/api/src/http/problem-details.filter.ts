import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import type { ApiRequest } from '#http/api-request.js';
import { problemBody, PROBLEM_TYPES } from '#http/problem.js';
import { problemOf } from '#http/problem-of.js';

/**
 * Every error leaves as application/problem+json (RFC 9457, docs/design-record.md#d3): a DomainError with its code, an
 * HttpException with the code of its status, anything else as INTERNAL, never with a stack or SQL.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  constructor(private readonly shaper: AnswerShaper) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<Response>();
    const { code, detail, errors, retryAfter, members, unexpected } = problemOf(exception, req);
    if (unexpected) {
      this.logger.error(
        { requestId: req.requestId, err: exception instanceof Error ? exception.stack : String(exception) },
        `Unhandled error on ${req.method} ${req.path} (request ${req.requestId})`,
      );
    } else if (code === 'SERVICE_UNAVAILABLE') {
      // The client was told to come back; the operator should hear that the pool ran dry.
      this.logger.warn(
        { requestId: req.requestId },
        `No database connection in time for ${req.method} ${req.path} (request ${req.requestId})`,
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    // Refused before its body arrived (the key is checked first, docs/design-record.md#d25): the
    // rest of the body is never read, so the connection ends with this answer instead of waiting for it.
    if (req.complete === false) res.setHeader('Connection', 'close');
    const status = PROBLEM_TYPES[code].status;
    const body = problemBody(code, detail, req.requestId, errors, members);
    // Shaped for the request's version like any answer (docs/design-record.md#d22); refused before
    // the key was known, for the current version.
    const shape = req.answerShape;
    const shaped =
      shape === undefined
        ? body
        : shape.operationId === undefined
          ? this.shaper.shapeInstance(shape.version, 'Problem', body)
          : this.shaper.shapeAnswer(shape.version, shape.operationId, status, body);
    res.status(status).type('application/problem+json').send(JSON.stringify(shaped));
  }
}
