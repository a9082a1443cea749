import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import type { EventView } from '#core/notices/event-log/event-view.js';
import { EventsService } from '#core/notices/event-log/events.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidBody, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toList } from '../mappers/page.mapper.js';

// The body is already the delivered one, field for field; only its type is the contract's.
const toEvent = (event: EventView): Schemas['Event'] => event as Schemas['Event'];

/** The event log and redelivery (docs/design-record.md#d18). */
@Controller()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Operation('listEvents')
  async listEvents(@CurrentKey() key: AuthenticatedKey, @ValidQuery() query: ListQuery<'listEvents'>): Promise<Schemas['EventList']> {
    return toList(await this.events.list(key.businessId, key.mode, query), toEvent);
  }

  @Operation('getEvent')
  async getEvent(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['Event']> {
    return toEvent(await this.events.get(key.businessId, key.mode, id));
  }

  @Operation('redeliverEvent')
  redeliverEvent(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidBody() body: RequestBody<'redeliverEvent'>,
  ): Promise<Schemas['Redelivery']> {
    return this.events.redeliver(key.businessId, id, body?.endpointId);
  }
}
