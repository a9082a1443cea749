import {
  HttpStatus,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, map, type Observable } from 'rxjs';
import { DomainError } from '#core/errors/domain-error.js';
import { requestFingerprint } from '#core/idempotency/fingerprint.js';
import { IdempotencyService, type IdempotentOutcome } from '#core/idempotency/idempotency.service.js';
import type { ApiRequest } from './api-request.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { PreparedResponse } from './prepared-response.js';
import { problemBody, PROBLEM_TYPES } from './problem.js';

/** Refusals the operation itself decided are stored and replayed; 400/401/402/403/429/5xx are not (D4). */
const STORED_REFUSALS = new Set<number>([HttpStatus.NOT_FOUND, HttpStatus.CONFLICT]);

/**
 * Makes a write idempotent (D4). Runs after the guards, so only an authorised caller's request
 * is recorded; the body pipes run inside, so an invalid body stores nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const idempotencyKey = readIdempotencyKey(req);
    const successStatus = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    let result: unknown;
    let refusal: DomainError | undefined;

    const write = async (): Promise<IdempotentOutcome> => {
      try {
        result = await lastValueFrom(next.handle());
        return { response: { status: successStatus, contentType: 'application/json', body: JSON.stringify(result) }, keepWrites: true };
      } catch (error) {
        const status = error instanceof DomainError ? PROBLEM_TYPES[error.code].status : undefined;
        if (!(error instanceof DomainError) || status === undefined || !STORED_REFUSALS.has(status)) throw error;
        refusal = error;
        const body = problemBody(error.code, error.detail, req.requestId, error.fieldErrors);
        return { response: { status, contentType: 'application/problem+json', body: JSON.stringify(body) }, keepWrites: false };
      }
    };

    const request = {
      apiKeyId: req.apiKey!.keyId,
      idempotencyKey,
      fingerprint: requestFingerprint(req.method, req.baseUrl + req.path, req.body),
    };
    return from(this.idempotency.execute(request, write)).pipe(
      map(({ response, replayed }) => {
        if (replayed) throw new PreparedResponse(response, { 'Idempotent-Replayed': 'true' });
        // The first answer goes out through the normal path; its bytes equal the stored ones.
        if (refusal) throw refusal;
        return result;
      }),
    );
  }
}

/** Marks a write route idempotent: Idempotency-Key required, replays within 24 hours. */
export const Idempotent = (): MethodDecorator => UseInterceptors(IdempotencyInterceptor);
