import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { validationFailed } from '#core/errors/domain-error.js';
import { cursorInvalid } from '#core/pagination/cursor-codec.js';
import type { Operations, QueryOf } from '#contract/contract-types.js';
import type { ApiRequest } from './api-request.js';
import { requestValidator } from './contract-validation.pipe.js';

/** A list operation's query once validated: the contract's default has given `limit` its value. */
export type ListQuery<Op extends keyof Operations> = QueryOf<Op> & { limit: number };

/**
 * The query of a paginated list, checked against the contract like @ContractQuery, except the
 * cursor: it is opaque, so any fault of it (too long, repeated, altered) is the codec's
 * CURSOR_INVALID rather than a VALIDATION_FAILED on the contract's maxLength. The other parameters
 * are checked first, so a request with several faults hears about those first.
 */
@Injectable()
class PageQueryPipe implements PipeTransform {
  constructor(private readonly operationId: keyof Operations) {
    requestValidator.assertOperation(operationId);
  }

  transform(value: unknown): unknown {
    const { cursor, ...rest } = (value ?? {}) as Record<string, unknown>;
    const result = requestValidator.validateQuery<Record<string, unknown>>(this.operationId, rest);
    if (!result.ok) throw validationFailed(result.problems);
    if (cursor === undefined) return result.value;
    if (typeof cursor !== 'string') throw cursorInvalid();
    return { ...result.value, cursor };
  }
}

const RequestQuery = createParamDecorator(
  (_: unknown, context: ExecutionContext): unknown => context.switchToHttp().getRequest<ApiRequest>().query,
);

export const PageQuery = (operationId: keyof Operations): ParameterDecorator =>
  RequestQuery(undefined, new PageQueryPipe(operationId));
