import type { StoredResponse } from '#core/idempotency/idempotency.service.js';

/**
 * A response already rendered (an idempotent replay). It travels as an exception so that it
 * bypasses Nest's serialisation and reaches ProblemDetailsFilter, which writes it byte for byte.
 */
export class PreparedResponse extends Error {
  constructor(
    readonly response: StoredResponse,
    readonly headers: Record<string, string> = {},
  ) {
    super('prepared response');
    this.name = 'PreparedResponse';
  }
}
