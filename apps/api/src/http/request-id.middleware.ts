import { randomUUID } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from '#http/api-request.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries X-Request-Id: the caller's when it is sane, else a new one (docs/design-record.md#d1). */
export function requestIdMiddleware(req: ApiRequest, res: Response, next: NextFunction): void {
  const given = req.header('x-request-id');
  req.requestId = given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
