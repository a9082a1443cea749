import { Get, Param, Post, Query } from '@nestjs/common';
import { DeliveryHistory } from '#core/notices/delivery-history/delivery-history.service.js';
import { NoticeDeliveriesService } from '#core/notices/delivery/notice-deliveries.service.js';
import { ServedContract } from '#contract/served-contract.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { Console, type ConsoleState } from '../console-request.js';
import { EndpointsOwners, type EndpointsOwner } from '../endpoints-owner.js';
import { deliveriesPage, deliveryPage, listLink, type DeliveryFilters } from '../pages/deliveries.page.js';
import { type PageFrame, frameOf } from '../pages/layout.js';

/** How many deliveries a page lists. */
const PAGE_SIZE = 50;

const frame = (state: ConsoleState, owner: EndpointsOwner, title: string): PageFrame =>
  frameOf(state, title, { section: owner.sandbox ? 'test-mode' : 'deliveries', sandbox: owner.sandbox });

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Deliveries of the live business or its sandbox (docs/design-record.md#d29): one row per notice and
 * endpoint, filtered by event type and outcome, each with its attempts beneath (what was sent,
 * what came back, how long it took), and sending one again.
 */
@ConsoleController(['b/:slug/deliveries', 'b/:slug/test-mode/deliveries'], { business: true })
export class DeliveriesController {
  constructor(
    private readonly history: DeliveryHistory,
    private readonly deliveries: NoticeDeliveriesService,
    private readonly owners: EndpointsOwners,
    private readonly contract: ServedContract,
    private readonly flow: ConsoleFlow,
  ) {}

  @Get()
  @ConsolePage()
  async list(
    @Console() state: ConsoleState,
    @Query('eventType') eventType: unknown,
    @Query('outcome') outcome: unknown,
    @Query('endpoint') endpoint: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<string> {
    const owner = await this.owners.of(state);
    const filters: DeliveryFilters = { eventType: text(eventType), outcome: text(outcome), endpointId: text(endpoint) };
    const flashes = await this.flow.taken(state);
    const listed = await this.history.list(
      owner.businessId,
      { eventType: filters.eventType, outcome: filters.outcome as never, endpointId: filters.endpointId },
      { cursor: text(cursor), limit: PAGE_SIZE },
    );
    const types = [...this.contract.noticeTypes, 'webhook.test'];
    return deliveriesPage(
      frame(state, owner, state.translator.t('deliveries.title')),
      owner,
      listed.items,
      listed.nextCursor,
      filters,
      types,
      flashes,
    );
  }

  @Get(':id')
  @ConsolePage()
  async show(@Console() state: ConsoleState, @Param('id') id: string): Promise<string> {
    const owner = await this.owners.of(state);
    const delivery = await this.history.detail(owner.businessId, id);
    const flashes = await this.flow.taken(state);
    return deliveryPage(frame(state, owner, state.translator.t('deliveries.one')), owner, delivery, flashes);
  }

  @Post(':id/send-again')
  @ConsoleAction(1)
  async sendAgain(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const delivery = await this.history.detail(owner.businessId, id);
    const sent = await this.deliveries.sendAgain(owner.businessId, delivery.noticeId, { to: 'endpoint', endpointId: delivery.endpoint.id });
    const subject = `notice ${sent.noticeId} to ${delivery.endpoint.url}`;
    await this.flow.audited(state, 'webhook.redeliver', owner.sandbox ? `sandbox: ${subject}` : subject);
    return this.flow.seeOther(state, listLink(`${owner.base}/deliveries`, { endpointId: delivery.endpoint.id }), {
      kind: 'notice',
      key: 'deliveries.queued',
    });
  }
}
