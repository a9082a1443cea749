import { Get } from '@nestjs/common';
import { ConsoleAuditService } from '#core/console-audit/console-audit.service.js';
import { ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { Console, membershipOf, type ConsoleState } from '../console-request.js';
import { auditPage } from '../pages/audit.page.js';
import { frameOf } from '../pages/layout.js';

/** The business's audit: the console's changes, sign-ins and the operator's changes, newest first. */
@ConsoleController('b/:slug/audit', { business: true })
export class AuditController {
  constructor(private readonly audit: ConsoleAuditService) {}

  @Get()
  @ConsolePage()
  async show(@Console() state: ConsoleState): Promise<string> {
    const entries = await this.audit.latest(membershipOf(state).businessId);
    return auditPage(frameOf(state, state.translator.t('audit.title'), { section: 'audit' }), entries);
  }
}
