import type { Request, Response, Router } from 'express';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { NoticeDeliveriesService } from '#core/notices/delivery/notice-deliveries.service.js';
import { subscribableNoticeTypes } from '#core/notices/outbox/notice-types.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { WebhookTestPingService } from '#core/notices/endpoints/webhook-test-ping.service.js';
import { field, fields, param, route, seeOther, type ConsoleContext } from '../console-context.js';
import { requireBusiness } from '../console-session.js';
import { membershipOf } from '../console-locals.js';
import { requireIntegrations } from '../plan-integrations.js';
import { businessPath } from '../pages/layout.js';
import { deleteConfirmPage, endpointPage, webhooksPage, type EndpointPageExtras } from '../pages/webhooks.page.js';

/** How many of an endpoint's latest attempts its page lists. */
const ATTEMPTS_SHOWN = 50;

/** The webhook endpoints of the live business: the same service, rules and limits as the API's. */
export function webhooksRoutes(router: Router, context: ConsoleContext): void {
  const endpoints = context.app.get(WebhookEndpointsService);
  const pings = context.app.get(WebhookTestPingService);
  const deliveries = context.app.get(NoticeDeliveriesService);
  const business = requireBusiness(context);
  const pathOf = (res: Response, rest = '') => businessPath(membershipOf(res), `/webhooks${rest}`);

  /** The endpoint the path names, of the page's business (NOT_FOUND for another's). */
  const endpointOf = (req: Request, res: Response) => endpoints.get(membershipOf(res).businessId, param(req, 'id'));

  const showEndpoint = async (req: Request, res: Response, extras: EndpointPageExtras = {}) => {
    const businessId = membershipOf(res).businessId;
    const endpoint = await endpoints.get(businessId, param(req, 'id'));
    const attempts = await endpoints.deliveries(businessId, endpoint.id, { limit: ATTEMPTS_SHOWN });
    res.send(endpointPage(context.frame(req, res, 'Webhook endpoint', 'webhooks'), endpoint, attempts.items, extras));
  };

  router.get(
    '/b/:slug/webhooks',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const notice = req.query.done === 'deleted' ? 'The endpoint was deleted.' : undefined;
      const list = await endpoints.list(membership.businessId);
      res.send(
        webhooksPage(
          context.frame(req, res, 'Webhooks', 'webhooks'),
          list,
          subscribableNoticeTypes(),
          planHasIntegrations(membership.plan),
          undefined,
          notice,
        ),
      );
    }),
  );

  router.post(
    '/b/:slug/webhooks',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      requireIntegrations(membership);
      const created = await endpoints.create(
        membership.businessId,
        {
          url: field(req, 'url'),
          events: fields(req, 'events'),
          description: field(req, 'description') || null,
          createdByMemberId: membership.memberId,
          apiVersion: field(req, 'apiVersion') || undefined,
        },
        membership.businessId,
        CURRENT_API_VERSION,
      );
      await context.audit(req, res, 'webhook.create', `${created.url} (${created.events.join(' ')})`);
      const list = await endpoints.list(membership.businessId);
      res.status(201).send(webhooksPage(context.frame(req, res, 'Webhooks', 'webhooks'), list, subscribableNoticeTypes(), true, created));
    }),
  );

  router.get(
    '/b/:slug/webhooks/:id',
    business,
    route(async (req, res) => {
      const done = req.query.done;
      const notice =
        done === 'redelivered'
          ? 'The notice was queued to be sent again.'
          : done === 'enabled'
            ? 'The endpoint was enabled.'
            : done === 'disabled'
              ? 'The endpoint was disabled.'
              : undefined;
      await showEndpoint(req, res, { notice });
    }),
  );

  router.post(
    '/b/:slug/webhooks/:id/test',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const result = await pings.ping(
        { id: membership.businessId, slug: membership.slug, tenantId: membership.businessId },
        param(req, 'id'),
      );
      const endpoint = await endpointOf(req, res);
      await context.audit(req, res, 'webhook.test', `${endpoint.url}: ${result.delivered ? 'delivered' : 'not delivered'}`);
      await showEndpoint(req, res, { ping: result });
    }),
  );

  router.post(
    '/b/:slug/webhooks/:id/rotate-secret',
    business,
    route(async (req, res) => {
      const rotated = await endpoints.rotateSecret(membershipOf(res).businessId, param(req, 'id'));
      await context.audit(req, res, 'webhook.rotate-secret', rotated.url);
      await showEndpoint(req, res, { secret: rotated.secret });
    }),
  );

  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(
      `/b/:slug/webhooks/:id/${action}`,
      business,
      route(async (req, res) => {
        const membership = membershipOf(res);
        const updated = await endpoints.update(membership.businessId, param(req, 'id'), { active }, membership.businessId);
        await context.audit(req, res, active ? 'webhook.enable' : 'webhook.disable', updated.url);
        seeOther(res, `${pathOf(res, `/${updated.id}`)}?done=${active ? 'enabled' : 'disabled'}`);
      }),
    );
  }

  router.get(
    '/b/:slug/webhooks/:id/delete',
    business,
    route(async (req, res) => {
      const endpoint = await endpointOf(req, res);
      res.send(deleteConfirmPage(context.frame(req, res, 'Delete an endpoint', 'webhooks'), endpoint));
    }),
  );

  router.post(
    '/b/:slug/webhooks/:id/delete',
    business,
    route(async (req, res) => {
      const endpoint = await endpointOf(req, res);
      await endpoints.delete(membershipOf(res).businessId, endpoint.id);
      await context.audit(req, res, 'webhook.delete', endpoint.url);
      seeOther(res, `${pathOf(res)}?done=deleted`);
    }),
  );

  router.post(
    '/b/:slug/webhooks/:id/redeliver',
    business,
    route(async (req, res) => {
      const endpoint = await endpointOf(req, res);
      const sent = await deliveries.sendAgain(endpoint.businessId, field(req, 'event'), { to: 'endpoint', endpointId: endpoint.id });
      await context.audit(req, res, 'webhook.redeliver', `notice ${sent.noticeId} to ${endpoint.url}`);
      seeOther(res, `${pathOf(res, `/${endpoint.id}`)}?done=redelivered`);
    }),
  );
}
