import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Operations, QueryOf } from '#contract/contract-types.js';
import type { ApiRequest, OperationInput } from './api-request.js';

/** A list operation's query once validated: the contract's default has given `limit` its value. */
export type ListQuery<Op extends keyof Operations> = QueryOf<Op> & { limit: number };

function checked(part: keyof OperationInput, context: ExecutionContext): unknown {
  const input = context.switchToHttp().getRequest<ApiRequest>().operationInput;
  // Present but undefined: an optional body that was left out.
  if (input === undefined || !(part in input)) throw new Error(`The handler's operation declares no ${part} (see its @Operation)`);
  return input[part];
}

/** The request body, as checked against the handler's operation. */
export const ValidBody = createParamDecorator((_: unknown, context: ExecutionContext): unknown => checked('body', context));

/** The query, as checked against the handler's operation (coerced, with the contract's defaults). */
export const ValidQuery = createParamDecorator((_: unknown, context: ExecutionContext): unknown => checked('query', context));

/** The path id, a UUID in lower case. */
export const PathId = createParamDecorator((_: unknown, context: ExecutionContext): string => checked('id', context) as string);

/** The authenticated key of the request (set by ApiKeyGuard). */
export const CurrentKey = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ApiRequest>().apiKey!,
);
