import { Get, Param, Post } from '@nestjs/common';
import { DomainError } from '#core/errors/domain-error.js';
import type { ListedGrant } from '#core/oauth/oauth-grants.repository.js';
import { OAuthGrantsService } from '#core/oauth/oauth-grants.service.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { Console, membershipOf, type ConsoleState } from '../console-request.js';
import { businessPath, frameOf } from '../pages/layout.js';
import { connectionsPage, revokeConnectionConfirmPage } from '../pages/oauth.pages.js';

/**
 * The apps connected to the business by an owner's consent (docs/design-record.md#d30): app,
 * mode, scopes, version, when connected and last used, who allowed it; disconnect, confirmed first.
 */
@ConsoleController('b/:slug/connections', { business: true })
export class ConnectionsController {
  constructor(
    private readonly grants: OAuthGrantsService,
    private readonly flow: ConsoleFlow,
  ) {}

  private async grantOf(state: ConsoleState, id: string): Promise<ListedGrant> {
    const grant = (await this.grants.list(membershipOf(state).slug)).find((g) => g.id === id);
    if (!grant) throw new DomainError('NOT_FOUND', 'No app is connected to this business with that id.');
    return grant;
  }

  @Get()
  @ConsolePage()
  async list(@Console() state: ConsoleState): Promise<string> {
    const flashes = await this.flow.taken(state);
    const notice = flashes.find((flash) => flash.kind === 'notice');
    return connectionsPage(
      frameOf(state, state.translator.t('connections.title'), { section: 'connections' }),
      await this.grants.list(membershipOf(state).slug),
      notice && notice.kind === 'notice' ? state.translator.t(notice.key, notice.params) : undefined,
    );
  }

  @Get(':id/revoke')
  @ConsolePage()
  async confirmRevoke(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    return revokeConnectionConfirmPage(
      frameOf(state, state.translator.t('connections.revokeTitle'), { section: 'connections' }),
      await this.grantOf(state, id),
    );
  }

  @Post(':id/revoke')
  @ConsoleAction(2)
  async revoke(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const grant = await this.grantOf(state, id);
    await this.grants.revoke(membershipOf(state).slug, grant.id);
    await this.flow.audited(state, 'oauth.revoke', `${grant.appName} (${grant.mode})`);
    return this.flow.seeOther(state, businessPath(membershipOf(state), '/connections'), {
      kind: 'notice',
      key: 'connections.revoked',
      params: { app: grant.appName },
    });
  }
}
