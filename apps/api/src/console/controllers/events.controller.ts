import { Get, Param, Post, Query } from '@nestjs/common';
import { NOTICE_TYPES } from '#contract/generated/operations.js';
import { EventsService } from '#core/notices/event-log/events.service.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { Console, type ConsoleState } from '../console-request.js';
import { EndpointsOwners, type EndpointsOwner } from '../endpoints-owner.js';
import { eventsLink, eventsPage, type EventFilters } from '../pages/events.page.js';
import { type PageFrame, frameOf } from '../pages/layout.js';

const PAGE_SIZE = 50;

const frame = (state: ConsoleState, owner: EndpointsOwner, title: string): PageFrame =>
  frameOf(state, title, { section: owner.sandbox ? 'test-mode' : 'events', sandbox: owner.sandbox });

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The event log of the last 30 days (docs/design-record.md#d18, #d29), filtered by type and resource, and sending an event again. */
@ConsoleController(['b/:slug/events', 'b/:slug/test-mode/events'], { business: true })
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly owners: EndpointsOwners,
    private readonly flow: ConsoleFlow,
  ) {}

  @Get()
  @ConsolePage()
  async list(
    @Console() state: ConsoleState,
    @Query('type') type: unknown,
    @Query('resource') resource: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<string> {
    const owner = await this.owners.of(state);
    const filters: EventFilters = { type: text(type), resourceId: text(resource) };
    const flashes = await this.flow.taken(state);
    const listed = await this.events.list(owner.businessId, owner.sandbox ? 'test' : 'live', {
      type: filters.type,
      resourceId: filters.resourceId,
      cursor: text(cursor),
      limit: PAGE_SIZE,
    });
    return eventsPage(
      frame(state, owner, state.translator.t('events.title')),
      owner,
      listed.items,
      listed.nextCursor,
      filters,
      NOTICE_TYPES,
      flashes,
    );
  }

  @Post(':id/send-again')
  @ConsoleAction(2)
  async sendAgain(@Console() state: ConsoleState, @Param('id') id: string): Promise<SeeOther> {
    const owner = await this.owners.of(state);
    const sent = await this.events.redeliver(owner.businessId, id);
    const subject = `notice ${sent.eventId} to ${sent.endpointIds.length} endpoint(s)`;
    await this.flow.audited(state, 'webhook.redeliver', owner.sandbox ? `sandbox: ${subject}` : subject);
    return this.flow.seeOther(state, eventsLink(`${owner.base}/events`, {}), {
      kind: 'notice',
      key: sent.endpointIds.length > 0 ? 'events.queued' : 'events.noEndpoint',
      params: { count: sent.endpointIds.length },
    });
  }
}
