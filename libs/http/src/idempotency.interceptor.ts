import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, map, type Observable } from 'rxjs';
import { SecretAnswers } from '#contract/secret-answers.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { requestFingerprint } from '#core/idempotency/fingerprint.js';
import { IdempotencyService, type IdempotentOutcome, type StoredResponse } from '#core/idempotency/idempotency.service.js';
import type { ApiRequest } from './api-request.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { operationOf, WAITS_ON_NETWORK } from './operation-metadata.js';
import { problemBody, PROBLEM_TYPES } from './problem.js';
import { problemOf } from './problem-of.js';

/** Refusals the operation itself decided are stored and replayed; 400/401/402/403/429/5xx are not (docs/design-record.md#d4). */
const STORED_REFUSALS = new Set<number>([HttpStatus.NOT_FOUND, HttpStatus.CONFLICT]);

/**
 * Makes a write idempotent (docs/design-record.md#d4). Runs after the guards, so only an authorised caller's request
 * is recorded; the input check runs inside, so an invalid request stores nothing. The first
 * answer goes out through the normal path (its bytes equal the stored ones); a replay is sent
 * from here, as stored.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
    private readonly secretAnswers: SecretAnswers,
    private readonly shaper: AnswerShaper,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const operation = operationOf(this.reflector, context);
    if (!operation) throw new Error('IdempotencyInterceptor serves only routes declared with @Operation');
    const idempotencyKey = readIdempotencyKey(req, operation.idempotencyKeyRequired);
    // An optional key left out (docs/design-record.md#d23): the write runs as it is, with no record.
    if (idempotencyKey === null) return next.handle();
    let result: unknown;
    let refusal: Error | undefined;

    const write = async (): Promise<IdempotentOutcome> => {
      try {
        result = await lastValueFrom(next.handle());
        const body = JSON.stringify(result);
        return { response: { status: operation.successStatus, contentType: 'application/json', body }, keepWrites: true };
      } catch (error) {
        const { code, detail, errors, members, unexpected } = problemOf(error, req);
        const status = PROBLEM_TYPES[code].status;
        if (unexpected || !STORED_REFUSALS.has(status) || !(error instanceof Error)) throw error;
        refusal = error;
        const body = JSON.stringify(problemBody(code, detail, req.requestId, errors, members));
        return { response: { status, contentType: 'application/problem+json', body }, keepWrites: false };
      }
    };

    const request = {
      apiKeyId: req.apiKey!.keyId,
      idempotencyKey,
      fingerprint: requestFingerprint(req.method, req.baseUrl + req.path, req.body),
      answerHoldsSecret: this.secretAnswers.holdsSecret(operation.operationId),
    };
    const waitsOnNetwork = this.reflector.get<boolean | undefined>(WAITS_ON_NETWORK, context.getHandler()) === true;
    const executed = waitsOnNetwork ? this.idempotency.executeOutsideTransaction(request, write) : this.idempotency.execute(request, write);
    return from(executed).pipe(
      map(({ response, replayed }) => {
        if (replayed) return replayOf(response, req, this.shaper);
        if (refusal !== undefined) throw refusal;
        return result;
      }),
    );
  }
}

/**
 * A stored answer as a web Response, which Nest sends as the whole answer (its status and headers
 * win over the route's). Its headers are the ones Express's res.send() gave the first answer
 * (Content-Type with its charset, Content-Length, ETag), plus Idempotent-Replayed. The record
 * holds the current version's answer; it is shaped for the request's version as the first answer
 * was (docs/design-record.md#d22), so a replay equals it byte for byte.
 */
function replayOf(stored: StoredResponse, req: ApiRequest, shaper: AnswerShaper): Response {
  const body = Buffer.from(shapedForRequest(stored, req, shaper), 'utf8');
  const headers = new Headers({
    'Content-Type': `${stored.contentType}; charset=utf-8`,
    'Content-Length': String(body.length),
    'Idempotent-Replayed': 'true',
  });
  const etag = (req.app.get('etag fn') as ((chunk: Buffer) => string | undefined) | undefined)?.(body);
  if (etag) headers.set('ETag', etag);
  return new Response(body, { status: stored.status, headers });
}

function shapedForRequest(stored: StoredResponse, req: ApiRequest, shaper: AnswerShaper): string {
  const shape = req.answerShape;
  if (shape?.operationId === undefined) return stored.body;
  const answer: unknown = JSON.parse(stored.body);
  const shaped = shaper.shapeAnswer(shape.version, shape.operationId, stored.status, answer);
  return shaped === answer ? stored.body : JSON.stringify(shaped);
}
