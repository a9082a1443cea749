import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { ServedContract } from '#contract/served-contract.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import type { ApiRequest } from './api-request.js';

/**
 * Shapes a handler's answer for the version the request is pinned to (docs/design-record.md#d22).
 * Global, so outside every route's own interceptors: what the idempotency record stores is the
 * current version's answer, and its replay is shaped the same way (IdempotencyInterceptor). A web
 * Response (a replay) is already shaped and passes as it is.
 */
@Injectable()
export class VersionShapingInterceptor implements NestInterceptor {
  constructor(
    private readonly contract: ServedContract,
    private readonly shaper: AnswerShaper,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const shape = context.switchToHttp().getRequest<ApiRequest>().answerShape;
    const facts = shape?.operationId === undefined ? undefined : this.contract.operation(shape.operationId);
    // Nothing to change (the current version's answer): no step added to the answer's stream
    // (docs/design-record.md#per-request-cost).
    if (!shape || !facts || !this.shaper.reshapesAnswer(shape.version, facts.operationId)) return next.handle();
    return next
      .handle()
      .pipe(
        map((result: unknown) =>
          result instanceof Response ? result : this.shaper.shapeAnswer(shape.version, facts.operationId, facts.successStatus, result),
        ),
      );
  }
}
