import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { DeliveryStatus } from '#database/entities/notice-delivery.entity.js';
import { defineStatement } from '#database/statement.js';
import { toTimestampLiteral } from '../../pagination/epoch-micros.js';
import type { KeysetPosition } from '../../pagination/keyset-position.js';
import type { PositionedRow } from '../../pagination/page.js';

/** Where a delivery stands (docs/design-record.md#d29): its current schedule's state. */
export const DELIVERY_STANDINGS = ['delivered', 'retrying', 'failed', 'pending'] as const;
export type DeliveryStanding = (typeof DELIVERY_STANDINGS)[number];

/** A delivery as stored, with its attempts counted and its last attempt. */
export interface StoredDelivery {
  id: string;
  noticeId: string;
  eventType: string;
  /** The notice's `data.occurredAt` as stored (text), else null. */
  occurredAt: string | null;
  noticeCreatedAt: Date;
  endpointId: string;
  endpointUrl: string;
  status: DeliveryStatus;
  standing: DeliveryStanding;
  /** Attempts of its current schedule (a redelivery starts again at 0). */
  scheduleAttempts: number;
  nextAttemptAt: Date | null;
  /** Every attempt recorded, whatever schedule. */
  attemptCount: number;
  /** Schedules begun: attempts numbered 1. */
  schedules: number;
  firstAttemptedAt: Date | null;
  lastAttemptedAt: Date | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
}

/** A delivery with what rebuilding its body takes. */
export interface StoredDeliveryWithNotice extends StoredDelivery {
  payload: unknown;
  /** The business is a sandbox: its notices say `"mode": "test"` (docs/design-record.md#d19). */
  sandbox: boolean;
}

export interface StoredAttempt {
  attempt: number;
  /** Which schedule of its delivery: 1, then one more for each time it was sent again. */
  schedule: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  failure: string | null;
  requestUrl: string | null;
  requestHeaders: [string, string][] | null;
  apiVersion: string | null;
  requestBodySha256: Buffer | null;
  requestBody: string | null;
  responseExcerpt: string | null;
}

export interface DeliveryHistoryFilter {
  eventType: string | null;
  standing: DeliveryStanding | null;
  endpointId: string | null;
}

/** Where a delivery stands, from its row: the one definition the list, its filter and the detail share. */
const STANDING = `CASE d.status WHEN 'DELIVERED' THEN 'delivered' WHEN 'FAILED' THEN 'failed'
       ELSE CASE WHEN d.attempts > 0 THEN 'retrying' ELSE 'pending' END END`;

const DELIVERY_COLUMNS = `d.id, d.notice_id AS "noticeId", n.type AS "eventType",
       n.payload #>> '{data,occurredAt}' AS "occurredAt", n.created_at AS "noticeCreatedAt",
       d.endpoint_id AS "endpointId", e.url AS "endpointUrl", d.status, ${STANDING} AS standing,
       d.attempts AS "scheduleAttempts", d.next_attempt_at AS "nextAttemptAt",
       coalesce(s.count, 0) AS "attemptCount", coalesce(s.schedules, 0) AS schedules, s.first_at AS "firstAttemptedAt",
       l.attempted_at AS "lastAttemptedAt", l.status_code AS "lastStatusCode", l.duration_ms AS "lastDurationMs"`;

// Both through delivery_attempts_delivery_idx (delivery_id, attempted_at): a page reads only its own rows' attempts.
const ATTEMPT_JOINS = `LEFT JOIN LATERAL (
       SELECT count(*)::int AS count, count(*) FILTER (WHERE a.attempt = 1)::int AS schedules, min(a.attempted_at) AS first_at
         FROM delivery_attempts a WHERE a.delivery_id = d.id) s ON true
  LEFT JOIN LATERAL (
       SELECT a.attempted_at, a.status_code, a.duration_ms FROM delivery_attempts a
        WHERE a.delivery_id = d.id ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1) l ON true`;

/**
 * A business's deliveries, newest first (notice_deliveries_business_created_idx), in keyset
 * pages, each with its attempts counted and its last one: the console's deliveries page.
 */
export const DELIVERY_PAGE = defineStatement<
  [
    businessId: string,
    eventType: string | null,
    standing: string | null,
    endpointId: string | null,
    beforeTime: string | null,
    beforeId: string | null,
    limit: number,
  ],
  StoredDelivery & { position: string }
>({
  name: 'delivery_history_page',
  text: `SELECT ${DELIVERY_COLUMNS}, (extract(epoch FROM d.created_at) * 1000000)::bigint::text AS position
  FROM notice_deliveries d
  JOIN notices n ON n.id = d.notice_id
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  ${ATTEMPT_JOINS}
 WHERE d.business_id = $1
   AND ($2::text IS NULL OR n.type = $2)
   AND ($3::text IS NULL OR ${STANDING} = $3)
   AND ($4::uuid IS NULL OR d.endpoint_id = $4)
   AND ($5::timestamptz IS NULL OR (d.created_at, d.id) < ($5::timestamptz, $6::uuid))
 ORDER BY d.created_at DESC, d.id DESC
 LIMIT $7`,
});

const DELIVERY_BY_ID = defineStatement<[businessId: string, id: string], StoredDeliveryWithNotice>({
  name: 'delivery_history_by_id',
  text: `SELECT ${DELIVERY_COLUMNS}, n.payload, b.live_business_id IS NOT NULL AS sandbox
  FROM notice_deliveries d
  JOIN notices n ON n.id = d.notice_id
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  JOIN businesses b ON b.id = d.business_id
  ${ATTEMPT_JOINS}
 WHERE d.business_id = $1 AND d.id = $2`,
});

/** A delivery's attempts, oldest first, each with the schedule it belongs to (a 1 begins one). */
export const ATTEMPTS_OF = defineStatement<[businessId: string, deliveryId: string], StoredAttempt>({
  name: 'delivery_history_attempts',
  text: `SELECT a.attempt, greatest(1, sum((a.attempt = 1)::int) OVER (ORDER BY a.attempted_at, a.id))::int AS schedule,
       a.attempted_at AS "attemptedAt", a.status_code AS "statusCode", a.duration_ms AS "durationMs", a.error, a.failure,
       a.request_url AS "requestUrl", a.request_headers AS "requestHeaders", a.api_version AS "apiVersion",
       a.request_body_sha256 AS "requestBodySha256", a.request_body AS "requestBody", a.response_excerpt AS "responseExcerpt"
  FROM delivery_attempts a
  JOIN notice_deliveries d ON d.id = a.delivery_id
 WHERE d.business_id = $1 AND a.delivery_id = $2
 ORDER BY a.attempted_at, a.id`,
});

/** The console's reads of the delivery log (docs/design-record.md#d29); every statement is the business's own. */
@Injectable()
export class DeliveryHistoryRepository {
  constructor(private readonly database: Database) {}

  /** The business's deliveries matching `filter`, newest first, strictly after `after` in (created_at, id) descending order. */
  async page(
    businessId: string,
    filter: DeliveryHistoryFilter,
    after: KeysetPosition | null,
    take: number,
  ): Promise<PositionedRow<StoredDelivery>[]> {
    const rows = await this.database.rows(DELIVERY_PAGE, [
      businessId,
      filter.eventType,
      filter.standing,
      filter.endpointId,
      after === null ? null : toTimestampLiteral(after.micros),
      after?.id ?? null,
      take,
    ]);
    return rows.map(({ position, ...delivery }) => ({ record: delivery, position: { micros: BigInt(position), id: delivery.id } }));
  }

  findById(businessId: string, deliveryId: string): Promise<StoredDeliveryWithNotice | null> {
    return this.database.maybeOne(DELIVERY_BY_ID, [businessId, deliveryId]);
  }

  attemptsOf(businessId: string, deliveryId: string): Promise<StoredAttempt[]> {
    return this.database.rows(ATTEMPTS_OF, [businessId, deliveryId]);
  }
}
