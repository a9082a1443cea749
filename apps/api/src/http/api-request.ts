import type { Request } from 'express';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';

/** The Express request as this API enriches it along the way. */
export interface ApiRequest extends Request {
  requestId: string;
  apiKey?: AuthenticatedKey;
  /** A body that could not be read (malformed JSON, too large, nested too deeply); reported after the guards. */
  bodyError?: 'PAYLOAD_TOO_LARGE' | 'MALFORMED_JSON' | 'TOO_DEEP';
}
