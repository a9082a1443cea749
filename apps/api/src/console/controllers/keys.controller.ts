import { Get, Param, Post, Query } from '@nestjs/common';
import { ApiKeysService, type ListedApiKey } from '#core/api-keys/api-keys.service.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { DomainError } from '#core/errors/domain-error.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { attempt } from '../console-forms.js';
import { ConsoleFlow, formStateIn, type SeeOther } from '../console-flow.js';
import { Console, Form, membershipOf, sessionOf, type ConsoleForm, type ConsoleState } from '../console-request.js';
import { keysPage, KEY_FORM_FIELDS, revokeConfirmPage, rollConfirmPage, versionConfirmPage } from '../pages/keys.page.js';
import { type PageFrame, businessPath, frameOf } from '../pages/layout.js';
import { requireIntegrations } from '../plan-integrations.js';

const frame = (state: ConsoleState, title: string): PageFrame => frameOf(state, title, { section: 'keys' });

/** The keys page: list, create (shown once), roll, revoke and change a key's version, each confirmed first (docs/design-record.md#d29). */
@ConsoleController('b/:slug/keys', { business: true })
export class KeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly flow: ConsoleFlow,
  ) {}

  private async keyOf(state: ConsoleState, id: string): Promise<ListedApiKey> {
    const key = (await this.keys.list(membershipOf(state).slug)).keys.find((k) => k.id === id);
    if (!key) throw new DomainError('NOT_FOUND', 'No active key of this business has that id.');
    return key;
  }

  private path(state: ConsoleState): string {
    return businessPath(membershipOf(state), '/keys');
  }

  @Get()
  @ConsolePage()
  async list(@Console() state: ConsoleState): Promise<string> {
    const membership = membershipOf(state);
    const flashes = await this.flow.taken(state);
    const listed = await this.keys.list(membership.slug);
    const t = state.translator;
    return keysPage(
      frame(state, t.t('keys.title')),
      listed.keys,
      planHasIntegrations(membership.plan),
      flashes,
      formStateIn(flashes, state.translator),
      t.t('plan.noIntegrations'),
    );
  }

  @Post()
  @ConsoleAction()
  async create(@Console() state: ConsoleState, @Form() form: ConsoleForm): Promise<SeeOther> {
    const membership = membershipOf(state);
    const created = await attempt(KEY_FORM_FIELDS, async () => {
      requireIntegrations(membership);
      return this.keys.create({
        businessSlug: membership.slug,
        memberEmail: sessionOf(state).email,
        name: form.field('name'),
        scopes: form.fields('scopes'),
        test: form.field('mode') === 'test',
        apiVersion: form.field('apiVersion') || undefined,
        // The console's keys are limited per hour, besides the active keys per mode (docs/design-record.md#d28).
        origin: 'console',
      });
    });
    if (!created.ok) return this.flow.refused(state, this.path(state), 'create-key', form, KEY_FORM_FIELDS, created);
    const key = created.value;
    await this.flow.audited(state, 'key.create', `${key.name} (${key.prefix}, ${key.mode}, ${key.scopes.join(' ')})`);
    // The key is on the next page view only, from a flash of this session: never in a URL.
    return this.flow.seeOther(state, this.path(state), {
      kind: 'secret',
      key: 'keys.created',
      params: { name: key.name, mode: state.translator.t(key.mode === 'test' ? 'mode.test' : 'mode.live') },
      label: 'keys.newKey',
      value: key.key,
    });
  }

  @Get(':id/revoke')
  @ConsolePage()
  async confirmRevoke(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    return revokeConfirmPage(frame(state, state.translator.t('keys.revokeTitle')), await this.keyOf(state, id));
  }

  @Post(':id/revoke')
  @ConsoleAction(2)
  async revoke(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const key = await this.keyOf(state, id);
    await this.keys.revoke(membershipOf(state).slug, { id: key.id });
    await this.flow.audited(state, 'key.revoke', `${key.name} (${key.prefix})`);
    return this.flow.seeOther(state, this.path(state), { kind: 'notice', key: 'keys.revoked', params: { name: key.name } });
  }

  @Get(':id/roll')
  @ConsolePage()
  async confirmRoll(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    return rollConfirmPage(frame(state, state.translator.t('keys.rollTitle')), await this.keyOf(state, id));
  }

  @Post(':id/roll')
  @ConsoleAction(2)
  async roll(@Console() state: ConsoleState, @Param('id') id: string, @Form() form: ConsoleForm): Promise<SeeOther> {
    const membership = membershipOf(state);
    const key = await this.keyOf(state, id);
    // The service checks the choice (one of ROLLED_KEY_LIVES), as it does `admin key roll`'s.
    const expires = form.field('expires');
    const rolled = await this.keys.roll({
      businessSlug: membership.slug,
      key: { id: key.id },
      oldKeyExpiresIn: expires,
      memberEmail: sessionOf(state).email,
      origin: 'console',
    });
    await this.flow.audited(
      state,
      'key.roll',
      `${key.name} (${key.prefix} → ${rolled.prefix}, old key stops at ${rolled.rolled.expiresAt})`,
    );
    return this.flow.seeOther(state, this.path(state), {
      kind: 'secret',
      key: 'keys.rolled',
      params: { name: key.name },
      label: 'keys.newKey',
      value: rolled.key,
    });
  }

  @Get(':id/api-version')
  @ConsolePage()
  async confirmVersion(@Console() state: ConsoleState, @Param('id') id: string, @Query('to') to: unknown): Promise<string> {
    const key = await this.keyOf(state, id);
    return versionConfirmPage(frame(state, state.translator.t('keys.versionTitle')), key, typeof to === 'string' ? to : key.apiVersion);
  }

  @Post(':id/api-version')
  @ConsoleAction(2)
  async setVersion(@Console() state: ConsoleState, @Param('id') id: string, @Form() form: ConsoleForm): Promise<SeeOther> {
    const key = await this.keys.setApiVersion(membershipOf(state).slug, id, form.field('apiVersion'));
    await this.flow.audited(state, 'key.api-version', `${key.name} (${key.prefix}) to ${key.apiVersion}`);
    return this.flow.seeOther(state, this.path(state), {
      kind: 'notice',
      key: 'keys.versionChanged',
      params: { name: key.name, version: key.apiVersion },
    });
  }
}
