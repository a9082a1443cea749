import type { NextFunction, Request, Response } from 'express';
import { inRequestScope } from '#database/request-tenant.js';

/**
 * Runs the rest of the request in a scope of its own, which ApiKeyGuard names the request's
 * tenant in once the key is authenticated: from then on its statements draw on that business's
 * share of the database pool (docs/design-record.md#pool-share-per-business).
 */
export function requestTenantScope(req: Request, res: Response, next: NextFunction): void {
  inRequestScope(next);
}
