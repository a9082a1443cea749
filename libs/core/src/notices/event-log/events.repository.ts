import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { toTimestampLiteral } from '../../pagination/epoch-micros.js';
import type { KeysetPosition } from '../../pagination/keyset-position.js';
import type { PositionedRow } from '../../pagination/page.js';
import type { DeliveryCounts } from './event-view.js';

/** A stored notice with its deliveries counted by status. */
export interface StoredEvent {
  id: string;
  type: string;
  payload: unknown;
  deliveries: DeliveryCounts;
}

interface EventRow {
  id: string;
  type: string;
  payload: unknown;
  pending: number;
  delivered: number;
  failed: number;
  position: string;
}

export interface EventPageFilter {
  /** Only notices of these types (the contract's; an extension's notices are not in the log). */
  types: readonly string[];
  /** Created at or after this instant (the later of the caller's `createdSince` and the retention limit). */
  since: string;
  /** Only notices about this resource: its `data.id`, or the `data.previousId` it replaces (the console's filter). */
  resourceId?: string;
}

// The page is cut first, from the (business_id, created_at, id) index read backwards; only its
// rows have their deliveries counted, through the (notice_id, endpoint_id) unique index.
// An endpoint that received the notice once counts as delivered for good, whatever a redelivery
// to it does since (docs/design-record.md#d23): its attempts are kept, and a 2xx among them says so.
/**
 * An event's deliveries counted per endpoint, for the notice aliased `notice` (D18): delivered
 * when it was received at least once (a redelivery never erases that), else pending or failed.
 */
function deliveryCountsOf(notice: string): string {
  return `(
       SELECT count(*) FILTER (WHERE NOT r.received AND d.status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE r.received)::int AS delivered,
              count(*) FILTER (WHERE NOT r.received AND d.status <> 'PENDING')::int AS failed
         FROM notice_deliveries d
        CROSS JOIN LATERAL (
              SELECT d.status = 'DELIVERED' OR d.delivered_at IS NOT NULL OR EXISTS (
                     SELECT FROM delivery_attempts a WHERE a.delivery_id = d.id AND a.status_code BETWEEN 200 AND 299) AS received) r
        WHERE d.notice_id = ${notice}.id) c`;
}

export const EVENT_PAGE = defineStatement<
  [
    businessId: string,
    types: readonly string[],
    since: string,
    beforeTime: string | null,
    beforeId: string | null,
    limit: number,
    resourceId: string | null,
  ],
  EventRow
>({
  name: 'event_page',
  text: `SELECT p.id, p.type, p.payload, c.pending, c.delivered, c.failed, p.position
  FROM (SELECT id, type, payload, created_at, (extract(epoch FROM created_at) * 1000000)::bigint::text AS position
          FROM notices
         WHERE business_id = $1 AND type = ANY($2::text[]) AND created_at >= $3::timestamptz
           AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
           AND ($7::text IS NULL OR payload #>> '{data,id}' = $7 OR payload #>> '{data,previousId}' = $7)
         ORDER BY created_at DESC, id DESC
         LIMIT $6) p
  CROSS JOIN LATERAL ${deliveryCountsOf('p')}
 ORDER BY p.created_at DESC, p.id DESC`,
});

export const EVENT_BY_ID = defineStatement<[businessId: string, id: string, types: readonly string[], since: string], EventRow>({
  name: 'event_by_id',
  text: `SELECT n.id, n.type, n.payload, c.pending, c.delivered, c.failed,
       (extract(epoch FROM n.created_at) * 1000000)::bigint::text AS position
  FROM notices n
  CROSS JOIN LATERAL ${deliveryCountsOf('n')}
 WHERE n.business_id = $1 AND n.id = $2 AND n.type = ANY($3::text[]) AND n.created_at >= $4::timestamptz`,
});

function toStored({ id, type, payload, pending, delivered, failed }: EventRow): StoredEvent {
  return { id, type, payload, deliveries: { pending, delivered, failed } };
}

@Injectable()
export class EventsRepository {
  constructor(private readonly database: Database) {}

  /** The business's notices matching `filter`, newest first, strictly before `before` in (created_at, id) order. */
  async page(
    businessId: string,
    filter: EventPageFilter,
    before: KeysetPosition | null,
    take: number,
  ): Promise<PositionedRow<StoredEvent>[]> {
    const rows = await this.database.rows(EVENT_PAGE, [
      businessId,
      filter.types,
      filter.since,
      before === null ? null : toTimestampLiteral(before.micros),
      before?.id ?? null,
      take,
      filter.resourceId ?? null,
    ]);
    return rows.map((row) => ({ record: toStored(row), position: { micros: BigInt(row.position), id: row.id } }));
  }

  async findById(businessId: string, id: string, filter: EventPageFilter): Promise<StoredEvent | null> {
    const row = await this.database.maybeOne(EVENT_BY_ID, [businessId, id, filter.types, filter.since]);
    return row ? toStored(row) : null;
  }
}
