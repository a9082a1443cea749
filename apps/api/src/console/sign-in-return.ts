import type { Request, Response } from 'express';
import { SIGN_IN_LINK_TTL_SECONDS } from '#core/console-auth/console-auth.js';

/**
 * Where a sign-in goes back to when it began in an OAuth authorization (docs/design-record.md#d30):
 * the authorization request, kept in a short cookie of this browser rather than in the e-mailed
 * link. Only an authorization path is ever kept or followed, so it can send nobody elsewhere.
 */
const RETURN_COOKIE = 'console_return';
const RETURN_PREFIX = '/console/auth/oauth2/authorize?';

export function rememberReturn(res: Response, path: string): void {
  if (!path.startsWith(RETURN_PREFIX)) return;
  res.cookie(RETURN_COOKIE, path, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/console',
    secure: res.req.secure,
    maxAge: SIGN_IN_LINK_TTL_SECONDS * 1000,
  });
}

/** The path to go back to after the sign-in, if one was kept; it is forgotten once taken. */
export function takeReturn(req: Request, res: Response): string | null {
  const kept: unknown = (req.cookies as Record<string, unknown> | undefined)?.[RETURN_COOKIE];
  if (typeof kept !== 'string') return null;
  res.clearCookie(RETURN_COOKIE, { path: '/console' });
  return kept.startsWith(RETURN_PREFIX) ? kept : null;
}
