import { Get, Param, Post } from '@nestjs/common';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { WebhookTestPingService } from '#core/notices/endpoints/webhook-test-ping.service.js';
import { ServedContract } from '#contract/served-contract.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { attempt } from '../console-forms.js';
import { ConsoleFlow, formStateIn, type SeeOther } from '../console-flow.js';
import { Console, Form, membershipOf, type ConsoleForm, type ConsoleState } from '../console-request.js';
import { ContractInput } from '../contract-input.js';
import { EndpointsOwners, type EndpointsOwner } from '../endpoints-owner.js';
import { type PageFrame, frameOf } from '../pages/layout.js';
import {
  deleteConfirmPage,
  editPage,
  endpointPage,
  ENDPOINT_FORM_FIELDS,
  rotateConfirmPage,
  webhooksPage,
} from '../pages/webhooks.page.js';
import { requireIntegrations } from '../plan-integrations.js';

const frame = (state: ConsoleState, owner: EndpointsOwner, title: string): PageFrame =>
  frameOf(state, title, { section: owner.sandbox ? 'test-mode' : 'webhooks', sandbox: owner.sandbox });

/** How a change is named in the audit: the sandbox's endpoints as such. */
const subject = (owner: EndpointsOwner, text: string): string => (owner.sandbox ? `sandbox: ${text}` : text);

/**
 * The webhook endpoints of the live business and of its sandbox (the notices of test keys), on
 * pages of their own: the API's operations' input rules (its validator) and its services, limits
 * and test-ping counting (docs/design-record.md#d24, #d29).
 */
@ConsoleController(['b/:slug/webhooks', 'b/:slug/test-mode/webhooks'], { business: true })
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly pings: WebhookTestPingService,
    private readonly owners: EndpointsOwners,
    private readonly contract: ServedContract,
    private readonly input: ContractInput,
    private readonly flow: ConsoleFlow,
  ) {}

  private title(
    state: ConsoleState,
    owner: EndpointsOwner,
    live: 'endpoint.title' | 'endpoint.one',
    sandbox: 'endpoint.sandboxTitle' | 'endpoint.sandboxOne',
  ): string {
    return state.translator.t(owner.sandbox ? sandbox : live);
  }

  @Get()
  @ConsolePage()
  async list(@Console() state: ConsoleState): Promise<string> {
    const owner = await this.owners.of(state);
    const flashes = await this.flow.taken(state);
    const list = await this.endpoints.list(owner.businessId);
    const canCreate = planHasIntegrations(membershipOf(state).plan);
    return webhooksPage(
      frame(state, owner, this.title(state, owner, 'endpoint.title', 'endpoint.sandboxTitle')),
      owner,
      list,
      this.contract.noticeTypes,
      canCreate,
      flashes,
      formStateIn(flashes, state.translator),
      state.translator.t('plan.noIntegrations'),
    );
  }

  @Post()
  @ConsoleAction()
  async register(@Console() state: ConsoleState, @Form() form: ConsoleForm): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const membership = membershipOf(state);
    const listPath = `${owner.base}/webhooks`;
    const created = await attempt(ENDPOINT_FORM_FIELDS, async () => {
      requireIntegrations(membership);
      const body = this.input.body('createWebhookEndpoint', {
        url: form.field('url'),
        events: form.fields('events'),
        ...(form.field('description') === '' ? {} : { description: form.field('description') }),
        ...(form.field('apiVersion') === '' ? {} : { apiVersion: form.field('apiVersion') }),
      });
      return this.endpoints.create(
        owner.businessId,
        { ...body, createdByMemberId: membership.memberId },
        owner.tenantId,
        CURRENT_API_VERSION,
      );
    });
    if (!created.ok) return this.flow.refused(state, listPath, 'register-endpoint', form, ENDPOINT_FORM_FIELDS, created);
    const endpoint = created.value;
    await this.flow.audited(state, 'webhook.create', subject(owner, `${endpoint.url} (${endpoint.events.join(' ')})`));
    return this.flow.seeOther(state, `${listPath}/${endpoint.id}`, {
      kind: 'secret',
      key: 'endpoint.registered',
      params: { url: endpoint.url },
      label: 'endpoint.secret',
      value: endpoint.secret,
    });
  }

  @Get(':id')
  @ConsolePage()
  async show(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    const flashes = await this.flow.taken(state);
    return endpointPage(frame(state, owner, this.title(state, owner, 'endpoint.one', 'endpoint.sandboxOne')), owner, endpoint, flashes);
  }

  @Post(':id/test')
  @ConsoleAction(1)
  async test(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    const result = await this.pings.ping({ id: owner.businessId, slug: owner.slug, tenantId: owner.tenantId }, endpoint.id);
    await this.flow.audited(state, 'webhook.test', subject(owner, `${endpoint.url}: ${result.delivered ? 'delivered' : 'not delivered'}`));
    return this.flow.seeOther(state, `${owner.base}/webhooks/${endpoint.id}`, {
      kind: 'ping',
      delivered: result.delivered,
      statusCode: result.statusCode,
      error: result.error ?? null,
    });
  }

  @Get(':id/edit')
  @ConsolePage()
  async editForm(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    const flashes = await this.flow.taken(state);
    return editPage(
      frame(state, owner, state.translator.t('endpoint.editTitle')),
      owner,
      endpoint,
      this.contract.noticeTypes,
      formStateIn(flashes, state.translator),
    );
  }

  @Post(':id/edit')
  @ConsoleAction(1)
  async edit(@Console() state: ConsoleState, @Param('id') id: string, @Form() form: ConsoleForm): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    const path = `${owner.base}/webhooks/${endpoint.id}`;
    const updated = await attempt(ENDPOINT_FORM_FIELDS, async () => {
      const description = form.field('description');
      const changes = this.input.body('updateWebhookEndpoint', {
        url: form.field('url'),
        events: form.fields('events'),
        description: description === '' ? null : description,
      });
      return this.endpoints.update(owner.businessId, endpoint.id, changes, owner.tenantId);
    });
    if (!updated.ok) return this.flow.refused(state, `${path}/edit`, 'edit-endpoint', form, ENDPOINT_FORM_FIELDS, updated);
    await this.flow.audited(state, 'webhook.update', subject(owner, `${updated.value.url} (${updated.value.events.join(' ')})`));
    return this.flow.seeOther(state, path, { kind: 'notice', key: 'endpoint.saved' });
  }

  @Get(':id/rotate-secret')
  @ConsolePage()
  async confirmRotate(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    return rotateConfirmPage(frame(state, owner, state.translator.t('endpoint.rotateTitle')), owner, endpoint);
  }

  @Post(':id/rotate-secret')
  @ConsoleAction(1)
  async rotate(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const rotated = await this.endpoints.rotateSecret(owner.businessId, id);
    await this.flow.audited(state, 'webhook.rotate-secret', subject(owner, rotated.url));
    return this.flow.seeOther(state, `${owner.base}/webhooks/${rotated.id}`, {
      kind: 'secret',
      key: 'endpoint.rotated',
      label: 'endpoint.newSecret',
      value: rotated.secret,
    });
  }

  @Post(':id/enable')
  @ConsoleAction(1)
  enable(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    return this.setActive(state, id, true);
  }

  @Post(':id/disable')
  @ConsoleAction(1)
  disable(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    return this.setActive(state, id, false);
  }

  private async setActive(state: ConsoleState, id: string, active: boolean): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const updated = await this.endpoints.update(owner.businessId, id, { active }, owner.tenantId);
    await this.flow.audited(state, active ? 'webhook.enable' : 'webhook.disable', subject(owner, updated.url));
    return this.flow.seeOther(state, `${owner.base}/webhooks/${updated.id}`, {
      kind: 'notice',
      key: active ? 'endpoint.enabledNotice' : 'endpoint.disabledNotice',
    });
  }

  @Get(':id/delete')
  @ConsolePage()
  async confirmDelete(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    return deleteConfirmPage(frame(state, owner, state.translator.t('endpoint.deleteTitle')), owner, endpoint);
  }

  @Post(':id/delete')
  @ConsoleAction(2)
  async delete(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const endpoint = await this.endpoints.get(owner.businessId, id);
    await this.endpoints.delete(owner.businessId, endpoint.id);
    await this.flow.audited(state, 'webhook.delete', subject(owner, endpoint.url));
    return this.flow.seeOther(state, `${owner.base}/webhooks`, { kind: 'notice', key: 'endpoint.deleted', params: { url: endpoint.url } });
  }
}
