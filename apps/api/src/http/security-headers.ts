import type { NextFunction, Request, Response } from 'express';

/**
 * What every answer carries, so that no browser ever renders one as a page of another type, in a
 * frame of another site, or with scripts: the API answers JSON, and the one page it serves
 * (GET /docs) replaces the policy with its own (docs.controller.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
});

// Listed once: every request sets them (docs/design-record.md#per-request-cost).
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

export function securityHeadersMiddleware(_req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of SECURITY_HEADER_ENTRIES) res.setHeader(name, value);
  next();
}
