import type { Request } from 'express';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';

/** A request's input once checked against its operation (OperationInputInterceptor). */
export interface OperationInput {
  id?: string;
  body?: unknown;
  query?: Record<string, unknown>;
}

/** The Express request as this API enriches it along the way. */
export interface ApiRequest extends Request {
  requestId: string;
  apiKey?: AuthenticatedKey;
  /** A body that could not be read (malformed JSON, too large, nested too deeply); reported after the guards. */
  bodyError?: 'PAYLOAD_TOO_LARGE' | 'MALFORMED_JSON' | 'TOO_DEEP';
  operationInput?: OperationInput;
  /**
   * The version the answer is shaped for and the operation it answers (undefined for a route
   * outside the contract), fixed once the key is known (docs/design-record.md#d22).
   */
  answerShape?: { version: ApiVersion; operationId: string | undefined };
}
