import express, { type NextFunction, type Response } from 'express';
import type { ApiRequest } from './api-request.js';

export const MAX_BODY_BYTES = 64 * 1024;

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: ['application/json', 'application/*+json'] });

/**
 * Reads JSON bodies up to 64 KiB. A body that cannot be read is noted on the request instead of
 * answered here, so authentication, rate limit, plan and scope still decide first (D2 order).
 */
export function jsonBodyMiddleware(req: ApiRequest, res: Response, next: NextFunction): void {
  parseJson(req, res, (error?: unknown) => {
    if (error) {
      const type = (error as { type?: string }).type;
      req.bodyError = type === 'entity.too.large' ? 'PAYLOAD_TOO_LARGE' : 'MALFORMED_JSON';
      req.body = undefined;
    }
    next();
  });
}
