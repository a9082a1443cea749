import { Inject, Injectable } from '@nestjs/common';
import { NOTICE_TYPES } from '#contract/generated/operations.js';
import { CLOCK, type Clock } from '../../clock/clock.js';
import { notFound, validationFailed } from '../../errors/domain-error.js';
import { isUuid } from '../../ids/uuid.js';
import { checkNoticeBody, deliveredNotice, type NoticeMode } from '../outbox/notice-body.js';
import { NOTICE_RETENTION_MS } from '../outbox/notice-channel.js';
import { CursorCodec, type CursorScope } from '../../pagination/cursor-codec.js';
import { parseDateTime, toTimestampLiteral, type EpochMicros } from '../../pagination/epoch-micros.js';
import { paginate, type Page, type PageParams } from '../../pagination/page.js';
import { NoticeDeliveriesService } from '../delivery/notice-deliveries.service.js';
import type { EventView } from './event-view.js';
import type { NoticeTypes } from '../outbox/notice-types.js';
import { ServedContract } from '#contract/served-contract.js';
import { EventsRepository, type EventPageFilter, type StoredEvent } from './events.repository.js';

export interface EventListQuery extends PageParams {
  type?: string;
  createdSince?: string;
  /** The console's filter (docs/design-record.md#d29): notices about this resource id (`data.id` or `data.previousId`). */
  resourceId?: string;
}

export interface Redelivery {
  eventId: string;
  /** The endpoints that will receive it: queued now, or already on their way. */
  endpointIds: string[];
}

function toView(event: StoredEvent, mode: NoticeMode, types: NoticeTypes): EventView {
  // The body exactly as the sender serialises it, field for field and in order (docs/design-record.md#d9),
  // in the current version's shape: the answer is shaped for the caller's like any other (docs/design-record.md#d22).
  return { ...deliveredNotice(checkNoticeBody(event.payload, types), mode), deliveries: event.deliveries };
}

/**
 * The event log (docs/design-record.md#d18): the business's notices of the last 30 days as they
 * were delivered, and sending one again with the same id. Only the contract's notice types are
 * listed: an enabled extension's notices are delivered, but its own document describes them.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly deliveries: NoticeDeliveriesService,
    private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly contract: ServedContract,
  ) {}

  /** `mode`: whether `businessId` is a sandbox (`test`), which its notices say (docs/design-record.md#d23). */
  list(businessId: string, mode: NoticeMode, query: EventListQuery): Promise<Page<EventView>> {
    let createdSince: EpochMicros | null = null;
    if (query.createdSince !== undefined) {
      createdSince = parseDateTime(query.createdSince);
      if (createdSince === null) {
        throw validationFailed([{ path: '/query/createdSince', message: 'must be a date-time with an offset, in the years 0001 to 9999' }]);
      }
    }
    const retained = this.retainedSince();
    const filter: EventPageFilter = {
      types: query.type === undefined ? NOTICE_TYPES : [query.type],
      since: toTimestampLiteral(createdSince !== null && createdSince > retained ? createdSince : retained),
      resourceId: query.resourceId?.toLowerCase(),
    };
    // The retention limit moves with time, so it is not part of the cursor's scope: only what the caller sent is.
    const scope: CursorScope = {
      list: 'events',
      businessId,
      filters: {
        type: query.type ?? null,
        createdSince: createdSince === null ? null : String(createdSince),
        // Only when given, so that the API's cursors (which never give it) keep their scope.
        ...(query.resourceId === undefined ? {} : { resourceId: query.resourceId.toLowerCase() }),
      },
    };
    return paginate(this.cursors, scope, query, async ({ after, take }) =>
      (await this.events.page(businessId, filter, after, take)).map((row) => ({
        record: toView(row.record, mode, this.contract.noticeTypes),
        position: row.position,
      })),
    );
  }

  async get(businessId: string, mode: NoticeMode, eventId: string): Promise<EventView> {
    return toView(await this.find(businessId, eventId), mode, this.contract.noticeTypes);
  }

  /**
   * Sends the notice again with the same id, as `admin webhook replay` does (NoticeDeliveriesService):
   * to `endpointId` (subscribed to its type or not), or to every active endpoint subscribed to its type.
   */
  async redeliver(businessId: string, eventId: string, endpointId?: string): Promise<Redelivery> {
    const event = await this.find(businessId, eventId);
    const sent = await this.deliveries.sendAgain(
      businessId,
      event.id,
      endpointId === undefined ? { to: 'subscribed' } : { to: 'endpoint', endpointId },
    );
    return { eventId: sent.noticeId, endpointIds: sent.endpointIds };
  }

  private async find(businessId: string, eventId: string): Promise<StoredEvent> {
    const filter: EventPageFilter = { types: NOTICE_TYPES, since: toTimestampLiteral(this.retainedSince()) };
    const event = isUuid(eventId) ? await this.events.findById(businessId, eventId, filter) : null;
    if (!event) throw notFound('The event');
    return event;
  }

  private retainedSince(): EpochMicros {
    return BigInt(this.clock.now().getTime() - NOTICE_RETENTION_MS) * 1000n;
  }
}
