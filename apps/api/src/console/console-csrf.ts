import type { Request, Response } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import { consoleSecret } from '#core/console-auth/console-auth.js';
import type { ConsoleRequest } from './console-request.js';

/** The field every console form carries its token in. */
export const CSRF_FIELD = '_csrf';

export interface ConsoleCsrf {
  /** The token of the form about to be written (its cookie set or kept on the answer). */
  token(req: Request, res: Response): string;
  /** Whether a POST carries the token of its cookie, bound to its session. */
  valid(req: Request): boolean;
}

/**
 * Form tokens of csrf-csrf (a signed double submit, docs/design-record.md#d26): the token in the
 * form must equal the one in its cookie, and that one is an HMAC over the session's id, so a token
 * of another session, or one set by a sibling host, does not pass. Before sign-in the forms are
 * bound to "signed-out".
 */
export function consoleCsrf(secretSource: string, secure: boolean): ConsoleCsrf {
  const csrf = doubleCsrf({
    getSecret: () => consoleSecret(secretSource, 'forms'),
    getSessionIdentifier: (req) => (req as ConsoleRequest).console?.session?.id ?? 'signed-out',
    cookieName: secure ? '__Host-console_csrf' : 'console_csrf',
    cookieOptions: { sameSite: 'lax', path: '/', secure, httpOnly: true },
    getCsrfTokenFromRequest: (req) => (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] as string | undefined,
  });
  return {
    token: (req, res) => csrf.generateCsrfToken(req, res),
    valid: (req) => csrf.validateRequest(req),
  };
}
