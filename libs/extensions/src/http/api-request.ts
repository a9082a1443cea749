import type { Request } from 'express';
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
}
