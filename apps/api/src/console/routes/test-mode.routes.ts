import type { Router } from 'express';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import { route, seeOther, type ConsoleContext } from '../console-context.js';
import { requireBusiness } from '../console-session.js';
import { membershipOf } from '../console-locals.js';
import { businessPath } from '../pages/layout.js';
import { testModePage } from '../pages/test-mode.page.js';

/** Test mode: the business's sandbox, made or reset, and the e-mails it kept. */
export function testModeRoutes(router: Router, context: ConsoleContext): void {
  const sandboxes = context.app.get(SandboxService);
  const business = requireBusiness(context);

  router.get(
    '/b/:slug/test-mode',
    business,
    route(async (req, res) => {
      const membership = membershipOf(res);
      const sandbox = await sandboxes.findSandbox(membership.businessId);
      const emails = sandbox ? await sandboxes.emailsOf(sandbox) : [];
      const notice =
        req.query.done === 'created' ? 'The sandbox was created.' : req.query.done === 'reset' ? 'The sandbox was reset.' : undefined;
      const canChange = planHasIntegrations(membership.plan);
      res.send(testModePage(context.frame(req, res, 'Test mode', 'test-mode'), sandbox, emails, canChange, notice));
    }),
  );

  for (const [action, done] of [
    ['create', 'created'],
    ['reset', 'reset'],
  ] as const) {
    router.post(
      `/b/:slug/test-mode/${action}`,
      business,
      route(async (req, res) => {
        const membership = membershipOf(res);
        // A plan without integrations is refused by the service (PLAN_INTEGRATIONS, docs/design-record.md#d28), a form posted anyway included.
        const summary = action === 'create' ? await sandboxes.create(membership.slug) : await sandboxes.reset(membership.slug);
        await context.audit(req, res, action === 'create' ? 'sandbox.create' : 'sandbox.reset', summary.sandbox.slug);
        seeOther(res, `${businessPath(membership, '/test-mode')}?done=${done}`);
      }),
    );
  }
}
