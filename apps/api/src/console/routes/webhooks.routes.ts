import type { Request, RequestHandler, Response, Router } from 'express';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { DomainError } from '#core/errors/domain-error.js';
import { NoticeDeliveriesService } from '#core/notices/delivery/notice-deliveries.service.js';
import { subscribableNoticeTypes } from '#core/notices/outbox/notice-types.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { WebhookTestPingService } from '#core/notices/endpoints/webhook-test-ping.service.js';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import { field, fields, param, route, seeOther, type ConsoleContext } from '../console-context.js';
import { requireBusiness } from '../console-session.js';
import { membershipOf } from '../console-locals.js';
import { requireIntegrations } from '../plan-integrations.js';
import { businessPath } from '../pages/layout.js';
import { deleteConfirmPage, endpointPage, webhooksPage, type EndpointPageExtras, type EndpointsOwner } from '../pages/webhooks.page.js';

/** How many of an endpoint's latest attempts its page lists. */
const ATTEMPTS_SHOWN = 50;

/** Where each side's pages are, under the business's console path. */
const SIDES = { live: '/webhooks', sandbox: '/test-mode/webhooks' } as const;
type Side = keyof typeof SIDES;

/**
 * The webhook endpoints of the live business and of its sandbox (the notices of test keys), each
 * on pages of its own: the same service, rules and limits as the API's, and test pings counted
 * for the two together as the API counts them (docs/design-record.md#d24).
 */
export function webhooksRoutes(router: Router, context: ConsoleContext): void {
  for (const side of Object.keys(SIDES) as Side[]) endpointRoutes(router, context, side);
}

function endpointRoutes(router: Router, context: ConsoleContext, side: Side): void {
  const endpoints = context.app.get(WebhookEndpointsService);
  const pings = context.app.get(WebhookTestPingService);
  const deliveries = context.app.get(NoticeDeliveriesService);
  const sandboxes = context.app.get(SandboxService);
  const business = requireBusiness(context);
  const base = `/b/:slug${SIDES[side]}`;

  /** The business whose endpoints the page manages; the tenant (the live business) is what limits count. */
  const ownerOf = async (res: Response): Promise<EndpointsOwner> => {
    const membership = membershipOf(res);
    const path = businessPath(membership, SIDES[side]);
    if (side === 'live')
      return { businessId: membership.businessId, slug: membership.slug, tenantId: membership.businessId, path, sandbox: false };
    const sandbox = await sandboxes.findSandbox(membership.businessId);
    if (!sandbox) throw new DomainError('NOT_FOUND', 'This business has no sandbox yet: create it under Test mode first.');
    // Notices of the sandbox name the live business, with "mode": "test", as a test key's ping does.
    return { businessId: sandbox.id, slug: membership.slug, tenantId: membership.businessId, path, sandbox: true };
  };
  const section = side === 'live' ? 'webhooks' : 'test-mode';
  const titles =
    side === 'live'
      ? { list: 'Webhooks', endpoint: 'Webhook endpoint', delete: 'Delete an endpoint' }
      : { list: 'Sandbox webhooks', endpoint: 'Sandbox webhook endpoint', delete: 'Delete a sandbox endpoint' };
  /** What the audit says an action was about: the sandbox's endpoints are named as such. */
  const subject = (text: string) => (side === 'live' ? text : `sandbox: ${text}`);

  /** The endpoint the path names, of the page's business (NOT_FOUND for another's). */
  const endpointOf = async (req: Request, owner: EndpointsOwner) => endpoints.get(owner.businessId, param(req, 'id'));

  const showEndpoint = async (req: Request, res: Response, owner: EndpointsOwner, extras: EndpointPageExtras = {}) => {
    const endpoint = await endpointOf(req, owner);
    const attempts = await endpoints.deliveries(owner.businessId, endpoint.id, { limit: ATTEMPTS_SHOWN });
    res.send(endpointPage(context.frame(req, res, titles.endpoint, section), owner, endpoint, attempts.items, extras));
  };

  /** A page or form of this side: behind the member check, its handler given whose endpoints they are. */
  const forOwner = (handler: (req: Request, res: Response, owner: EndpointsOwner) => Promise<void>): RequestHandler[] => [
    business,
    route(async (req, res) => handler(req, res, await ownerOf(res))),
  ];

  router.get(
    base,
    ...forOwner(async (req, res, owner) => {
      const notice = req.query.done === 'deleted' ? 'The endpoint was deleted.' : undefined;
      const list = await endpoints.list(owner.businessId);
      const canCreate = planHasIntegrations(membershipOf(res).plan);
      res.send(
        webhooksPage(context.frame(req, res, titles.list, section), owner, list, subscribableNoticeTypes(), canCreate, undefined, notice),
      );
    }),
  );

  router.post(
    base,
    ...forOwner(async (req, res, owner) => {
      const membership = membershipOf(res);
      requireIntegrations(membership);
      const created = await endpoints.create(
        owner.businessId,
        {
          url: field(req, 'url'),
          events: fields(req, 'events'),
          description: field(req, 'description') || null,
          createdByMemberId: membership.memberId,
          apiVersion: field(req, 'apiVersion') || undefined,
        },
        owner.tenantId,
        CURRENT_API_VERSION,
      );
      await context.audit(req, res, 'webhook.create', subject(`${created.url} (${created.events.join(' ')})`));
      const list = await endpoints.list(owner.businessId);
      res
        .status(201)
        .send(webhooksPage(context.frame(req, res, titles.list, section), owner, list, subscribableNoticeTypes(), true, created));
    }),
  );

  router.get(
    `${base}/:id`,
    ...forOwner(async (req, res, owner) => {
      const done = req.query.done;
      const notice =
        done === 'redelivered'
          ? 'The notice was queued to be sent again.'
          : done === 'enabled'
            ? 'The endpoint was enabled.'
            : done === 'disabled'
              ? 'The endpoint was disabled.'
              : undefined;
      await showEndpoint(req, res, owner, { notice });
    }),
  );

  router.post(
    `${base}/:id/test`,
    ...forOwner(async (req, res, owner) => {
      const result = await pings.ping({ id: owner.businessId, slug: owner.slug, tenantId: owner.tenantId }, param(req, 'id'));
      const endpoint = await endpointOf(req, owner);
      await context.audit(req, res, 'webhook.test', subject(`${endpoint.url}: ${result.delivered ? 'delivered' : 'not delivered'}`));
      await showEndpoint(req, res, owner, { ping: result });
    }),
  );

  router.post(
    `${base}/:id/rotate-secret`,
    ...forOwner(async (req, res, owner) => {
      const rotated = await endpoints.rotateSecret(owner.businessId, param(req, 'id'));
      await context.audit(req, res, 'webhook.rotate-secret', subject(rotated.url));
      await showEndpoint(req, res, owner, { secret: rotated.secret });
    }),
  );

  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(
      `${base}/:id/${action}`,
      ...forOwner(async (req, res, owner) => {
        const updated = await endpoints.update(owner.businessId, param(req, 'id'), { active }, owner.tenantId);
        await context.audit(req, res, active ? 'webhook.enable' : 'webhook.disable', subject(updated.url));
        seeOther(res, `${owner.path}/${updated.id}?done=${active ? 'enabled' : 'disabled'}`);
      }),
    );
  }

  router.get(
    `${base}/:id/delete`,
    ...forOwner(async (req, res, owner) => {
      const endpoint = await endpointOf(req, owner);
      res.send(deleteConfirmPage(context.frame(req, res, titles.delete, section), owner, endpoint));
    }),
  );

  router.post(
    `${base}/:id/delete`,
    ...forOwner(async (req, res, owner) => {
      const endpoint = await endpointOf(req, owner);
      await endpoints.delete(owner.businessId, endpoint.id);
      await context.audit(req, res, 'webhook.delete', subject(endpoint.url));
      seeOther(res, `${owner.path}?done=deleted`);
    }),
  );

  router.post(
    `${base}/:id/redeliver`,
    ...forOwner(async (req, res, owner) => {
      const endpoint = await endpointOf(req, owner);
      const sent = await deliveries.sendAgain(endpoint.businessId, field(req, 'event'), { to: 'endpoint', endpointId: endpoint.id });
      await context.audit(req, res, 'webhook.redeliver', subject(`notice ${sent.noticeId} to ${endpoint.url}`));
      seeOther(res, `${owner.path}/${endpoint.id}?done=redelivered`);
    }),
  );
}
