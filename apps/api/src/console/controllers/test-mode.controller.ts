import { Get, Post } from '@nestjs/common';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { Console, membershipOf, type ConsoleState } from '../console-request.js';
import { type PageFrame, businessPath, frameOf } from '../pages/layout.js';
import { resetConfirmPage, testModePage } from '../pages/test-mode.page.js';

const frame = (state: ConsoleState, title: string): PageFrame => frameOf(state, title, { section: 'test-mode', sandbox: true });

/** Test mode: the business's sandbox, made or reset (after a confirmation), and the e-mails it kept. */
@ConsoleController('b/:slug/test-mode', { business: true })
export class TestModeController {
  constructor(
    private readonly sandboxes: SandboxService,
    private readonly flow: ConsoleFlow,
  ) {}

  @Get()
  @ConsolePage()
  async show(@Console() state: ConsoleState): Promise<string> {
    const membership = membershipOf(state);
    const flashes = await this.flow.taken(state);
    const sandbox = await this.sandboxes.findSandbox(membership.businessId);
    const emails = sandbox ? await this.sandboxes.emailsOf(sandbox) : [];
    return testModePage(frame(state, state.translator.t('sandbox.title')), sandbox, emails, planHasIntegrations(membership.plan), flashes);
  }

  @Post('create')
  @ConsoleAction(1)
  async create(@Console() state: ConsoleState): Promise<SeeOther> {
    const membership = membershipOf(state);
    // A plan without integrations is refused by the service (PLAN_INTEGRATIONS, docs/design-record.md#d28), a form posted anyway included.
    const summary = await this.sandboxes.create(membership.slug);
    await this.flow.audited(state, 'sandbox.create', summary.sandbox.slug);
    return this.flow.seeOther(state, businessPath(membership, '/test-mode'), { kind: 'notice', key: 'sandbox.created' });
  }

  @Get('reset')
  @ConsolePage()
  confirmReset(@Console() state: ConsoleState): string {
    return resetConfirmPage(frame(state, state.translator.t('sandbox.resetTitle')));
  }

  @Post('reset')
  @ConsoleAction(1)
  async reset(@Console() state: ConsoleState): Promise<SeeOther> {
    const membership = membershipOf(state);
    const summary = await this.sandboxes.reset(membership.slug);
    await this.flow.audited(state, 'sandbox.reset', summary.sandbox.slug);
    return this.flow.seeOther(state, businessPath(membership, '/test-mode'), { kind: 'notice', key: 'sandbox.wasReset' });
  }
}
