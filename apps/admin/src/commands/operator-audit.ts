import type { INestApplicationContext } from '@nestjs/common';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { ConsoleAuditService, type OperatorAction } from '#core/console-audit/console-audit.service.js';

/**
 * Records a change the admin command line made to a business in the console's audit, by
 * "operator" (docs/design-record.md#d29), once the change is done: its owners see it beside their
 * own. `business` is the id when the command has it, else the slug it was given.
 */
export async function recordOperatorChange(
  app: INestApplicationContext,
  business: { id: string } | { slug: string },
  action: OperatorAction,
  subject: string,
): Promise<void> {
  const businessId = 'id' in business ? business.id : (await app.get(BusinessesService).getBySlug(business.slug)).id;
  await app.get(ConsoleAuditService).recordOperatorChange(businessId, action, subject);
}
