import type { Router } from 'express';
import { ConsoleLinkRequests } from '#core/console-auth/console-link-requests.service.js';
import { consoleBaseUrl } from '#core/console-auth/console-origin.js';
import { clientAddress } from '../../http/client-address.js';
import { field, route, seeOther, type ConsoleContext } from '../console-context.js';
import { cookieHeaders, forwardCookies } from '../console-session.js';
import { sessionOf, setSession } from '../console-locals.js';
import { businessesPage, confirmPage, limitedPage, linkSentPage, signInPage } from '../pages/sign-in.pages.js';

/** Sign-in by e-mailed link, the choice of business, and sign-out (docs/design-record.md#d26). */
export function signInRoutes(router: Router, context: ConsoleContext): void {
  const requests = context.app.get(ConsoleLinkRequests);

  router.get(
    '/',
    route(async (req, res) => {
      const session = sessionOf(res);
      if (!session) return seeOther(res, '/console/sign-in');
      const memberships = await context.links.businessesOf(session.email);
      if (memberships.length === 1) return seeOther(res, `/console/b/${encodeURIComponent(memberships[0].slug)}/keys`);
      res.send(businessesPage(context.frame(req, res, 'Your businesses'), memberships));
    }),
  );

  router.get(
    '/sign-in',
    route(async (req, res) => {
      if (sessionOf(res)) return seeOther(res, '/console');
      const notice = req.query.notice === 'signed-out' ? 'signed-out' : undefined;
      res.send(signInPage(context.frame(req, res, 'Sign in'), notice));
      await Promise.resolve();
    }),
  );

  router.post(
    '/sign-in',
    route(async (req, res) => {
      // The link goes to the configured address, never to one this request's Host names.
      const { outcome } = await requests.request(field(req, 'email'), clientAddress(req), consoleBaseUrl(context.config));
      if (outcome === 'limited') {
        res.status(429).send(limitedPage(context.frame(req, res, 'Sign in')));
        return;
      }
      res.send(linkSentPage(context.frame(req, res, 'Check your e-mail')));
    }),
  );

  router.get(
    '/sign-in/confirm',
    route(async (req, res) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      res.send(confirmPage(context.frame(req, res, 'Sign in'), token));
      await Promise.resolve();
    }),
  );

  router.post(
    '/sign-in/confirm',
    route(async (req, res) => {
      const spent = await context.authentication.spend(field(req, 'token'), clientAddress(req));
      if (!spent.signedIn) {
        res.status(400).send(signInPage(context.frame(req, res, 'Sign in'), spent.refusal));
        return;
      }
      // A session that was open in this browser ends: the link's session replaces it.
      if (sessionOf(res)) await context.authentication.signOut(cookieHeaders(req), clientAddress(req));
      forwardCookies(res, spent.setCookies);
      seeOther(res, '/console');
    }),
  );

  router.post(
    '/sign-out',
    route(async (req, res) => {
      forwardCookies(res, await context.authentication.signOut(cookieHeaders(req), clientAddress(req)));
      setSession(res, null);
      seeOther(res, '/console/sign-in?notice=signed-out');
    }),
  );
}
