import type { NextFunction, Request, Response } from 'express';
import type { ConsoleContext } from './console-context.js';
import { errorPage } from './pages/sign-in.pages.js';
import { sessionOf, setMembership, setSession } from './console-locals.js';

/** The request's cookies as Better Auth reads them. */
export function cookieHeaders(req: Request): Headers {
  const headers = new Headers();
  if (typeof req.headers.cookie === 'string') headers.set('cookie', req.headers.cookie);
  return headers;
}

export function forwardCookies(res: Response, setCookies: string[]): void {
  for (const cookie of setCookies) res.append('Set-Cookie', cookie);
}

/** Finds the request's session (Better Auth moves its idle deadline, and says so in a cookie). */
export function loadSession(context: ConsoleContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    context.authentication
      .session(cookieHeaders(req))
      .then(({ session, setCookies }) => {
        forwardCookies(res, setCookies);
        setSession(res, session);
        next();
      })
      .catch(next);
  };
}

/**
 * A business's pages: only for a signed-in OWNER or PARTNER of that business, asked of the members
 * table on every request, so a member removed or made STAFF loses them at once. Anyone else is
 * told there is nothing here, whether the business exists or not.
 */
export function requireBusiness(context: ConsoleContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const session = sessionOf(res);
    if (!session) {
      res.redirect(303, '/console/sign-in');
      return;
    }
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    context.links
      .membershipIn(session.email, slug)
      .then((membership) => {
        if (!membership) {
          res.status(404).send(errorPage(context.frame(req, res, 'Nothing here'), 'There is no business of yours at this address.'));
          return;
        }
        setMembership(res, membership);
        next();
      })
      .catch(next);
  };
}
