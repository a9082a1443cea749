import type { NextFunction, Request, Response } from 'express';

/**
 * The console's pages are the one place the API serves HTML to a person (docs/design-record.md#d26):
 * their policy allows this origin's own stylesheet, script and forms, and nothing inline, framed
 * or from elsewhere. It replaces the API's policy (security-headers.ts) on /console only.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function consoleHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  // A page with a key or a secret on it is never kept by a cache or the back button's copy.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
}
