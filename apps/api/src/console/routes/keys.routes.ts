import type { Router } from 'express';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { DomainError } from '#core/errors/domain-error.js';
import { field, fields, param, route, seeOther, type ConsoleContext } from '../console-context.js';
import { requireBusiness } from '../console-session.js';
import { membershipOf, sessionOf } from '../console-locals.js';
import { keysPage, revokeConfirmPage } from '../pages/keys.page.js';
import { requireIntegrations } from '../plan-integrations.js';
import { businessPath } from '../pages/layout.js';

/** The keys page: list, create (shown once), revoke after a confirmation, change a key's version. */
export function keysRoutes(router: Router, context: ConsoleContext): void {
  const keys = context.app.get(ApiKeysService);
  const business = requireBusiness(context);

  const findKey = async (slug: string, id: string) => {
    const key = (await keys.list(slug)).keys.find((k) => k.id === id);
    if (!key) throw new DomainError('NOT_FOUND', 'No active key of this business has that id.');
    return key;
  };

  router.get(
    '/b/:slug/keys',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const notice =
        req.query.done === 'revoked'
          ? 'The key was revoked.'
          : req.query.done === 'version'
            ? "The key's API version was changed."
            : undefined;
      const listed = await keys.list(membership.slug);
      res.send(keysPage(context.frame(req, res, 'API keys', 'keys'), listed.keys, planHasIntegrations(membership.plan), undefined, notice));
    }),
  );

  router.post(
    '/b/:slug/keys',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      requireIntegrations(membership);
      const created = await keys.create({
        businessSlug: membership.slug,
        memberEmail: sessionOf(res)!.email,
        name: field(req, 'name'),
        scopes: fields(req, 'scopes'),
        test: field(req, 'mode') === 'test',
        apiVersion: field(req, 'apiVersion') || undefined,
        // The console's keys are limited per hour, besides the active keys per mode (docs/design-record.md#d28).
        origin: 'console',
      });
      await context.audit(req, res, 'key.create', `${created.name} (${created.prefix}, ${created.mode}, ${created.scopes.join(' ')})`);
      const listed = await keys.list(membership.slug);
      // The key is in this answer only, never in a page that can be fetched again.
      res.status(201).send(keysPage(context.frame(req, res, 'API keys', 'keys'), listed.keys, true, created));
    }),
  );

  router.get(
    '/b/:slug/keys/:id/revoke',
    business,
    route(async (req, res) => {
      const key = await findKey(membershipOf(res).slug, param(req, 'id'));
      res.send(revokeConfirmPage(context.frame(req, res, 'Revoke a key', 'keys'), key));
    }),
  );

  router.post(
    '/b/:slug/keys/:id/revoke',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const key = await findKey(membership.slug, param(req, 'id'));
      await keys.revoke(membership.slug, { id: key.id });
      await context.audit(req, res, 'key.revoke', `${key.name} (${key.prefix})`);
      seeOther(res, `${businessPath(membership, '/keys')}?done=revoked`);
    }),
  );

  router.post(
    '/b/:slug/keys/:id/api-version',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const key = await keys.setApiVersion(membership.slug, param(req, 'id'), field(req, 'apiVersion'));
      await context.audit(req, res, 'key.api-version', `${key.name} (${key.prefix}) to ${key.apiVersion}`);
      seeOther(res, `${businessPath(membership, '/keys')}?done=version`);
    }),
  );
}
