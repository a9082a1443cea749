import type { Router } from 'express';
import { ConsoleAuditService } from '#core/console-audit/console-audit.service.js';
import { route, type ConsoleContext } from '../console-context.js';
import { requireBusiness } from '../console-session.js';
import { membershipOf } from '../console-locals.js';
import { auditPage } from '../pages/audit.page.js';

export function auditRoutes(router: Router, context: ConsoleContext): void {
  const audit = context.app.get(ConsoleAuditService);
  router.get(
    '/b/:slug/audit',
    requireBusiness(context),
    route(async (req, res) => {
      const entries = await audit.latest(membershipOf(res).businessId);
      res.send(auditPage(context.frame(req, res, 'Audit', 'audit'), entries));
    }),
  );
}
