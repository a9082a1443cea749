import { Injectable } from '@nestjs/common';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import type { DeliveryAttemptEntity } from '#database/entities/delivery-attempt.entity.js';
import type { DeliveryStatus, NoticeDeliveryEntity } from '#database/entities/notice-delivery.entity.js';
import { newId } from '#database/new-id.js';
import { defineStatement } from '#database/statement.js';
import { toTimestampLiteral } from '../../pagination/epoch-micros.js';
import type { KeysetPosition } from '../../pagination/keyset-position.js';
import type { PositionedRow } from '../../pagination/page.js';

/** Which delivery: a notice on its way to one endpoint (also the job's data). */
export interface DeliveryRef {
  businessId: string;
  noticeId: string;
  endpointId: string;
}

/**
 * A delivery with what sending it takes: the stored body, the endpoint's address and its secrets
 * as stored (sealed). They are opened by whoever signs, one delivery at a time, so that a secret
 * that does not open fails its own delivery and not the lookup of every delivery beside it
 * (docs/design-record.md#d24).
 */
export interface DeliveryToSend extends DeliveryRef {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  payload: unknown;
  /** The live business: the delivery's own, or the one whose sandbox it is. Its share of the worker is counted under this id. */
  liveBusinessId: string;
  /** The delivery is a sandbox's (test mode, docs/design-record.md#d19). */
  sandbox: boolean;
  endpoint: {
    url: string;
    sealedSecret: string;
    sealedPreviousSecret: string | null;
    previousSecretExpiresAt: Date | null;
    enabled: boolean;
    disabledReason: string | null;
    /** The version the notice is to be shaped for (docs/design-record.md#d22). */
    apiVersion: ApiVersion;
  };
}

/** A due delivery, with the key the sweep pages on. */
export interface DueDelivery extends DeliveryRef {
  id: string;
  nextAttemptAt: Date;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  noticeId?: string;
  limit: number;
}

export interface DeliveryListItem {
  id: string;
  noticeId: string;
  type: string;
  endpointId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  lastAttempt: { attemptedAt: Date; statusCode: number | null; durationMs: number; error: string | null } | null;
}

interface DeliveryListRow extends Omit<DeliveryListItem, 'lastAttempt'> {
  attemptedAt: Date | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
}

/** A delivery's own columns (what is inserted), without its relations. */
export type NewDelivery = Omit<NoticeDeliveryEntity, 'notice' | 'endpoint'>;
export type NewAttempt = Omit<DeliveryAttemptEntity, 'delivery'>;

/** A successful attempt to record: which delivery, the attempt, and when it was delivered. */
export interface DeliveredRecord {
  delivery: DeliveryRef & { id: string };
  /** Its endpoint and number are the delivery's, read by the statement that records it. */
  attempt: Omit<NewAttempt, 'endpointId' | 'attempt'>;
  deliveredAt: Date;
}

/** Matches a row to the ref it was asked for (ids as PostgreSQL prints them). */
function refKey(ref: Pick<DeliveryRef, 'noticeId' | 'endpointId'>): string {
  return `${ref.noticeId.toLowerCase()}.${ref.endpointId.toLowerCase()}`;
}

export interface DeliveryUpdate {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** When it was received; null leaves an earlier reception as it is (a redelivery erases nothing). */
  deliveredAt: Date | null;
}

type RefRow = { business_id: string; notice_id: string; endpoint_id: string };

/** What an attempt keeps of its exchange, one array per column (docs/design-record.md#d29); the digest as hex. */
type ExchangeColumns = [
  requestUrls: (string | null)[],
  requestHeaders: (string | null)[],
  apiVersions: (string | null)[],
  requestBodySha256: (string | null)[],
  responseExcerpts: (string | null)[],
  failures: (string | null)[],
];

const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** One attempt of an endpoint's log (GET /webhook-endpoints/{id}/deliveries). */
export interface EndpointAttempt {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** When the retry after this attempt is (or was) made; null when none follows. */
  nextAttemptAt: Date | null;
  /** No attempt of its schedule follows (delivered, the last retry, the endpoint disabled, a test ping). */
  final: boolean;
}

type EndpointAttemptRow = EndpointAttempt & { position: string };
type SendingRow = Omit<DeliveryToSend, 'endpoint'> & DeliveryToSend['endpoint'];

// One array per column, so the statement is the same whatever the batch size.
const INSERT_DELIVERIES = defineStatement<
  [
    ids: string[],
    businessIds: string[],
    noticeIds: string[],
    endpointIds: string[],
    statuses: string[],
    attempts: number[],
    nextAttemptsAt: (Date | null)[],
    deliveredAt: (Date | null)[],
    createdAt: Date[],
    updatedAt: Date[],
  ],
  RefRow
>({
  name: 'insert_notice_deliveries',
  text: `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, delivered_at, created_at, updated_at)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::int[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[], $10::timestamptz[])
ON CONFLICT DO NOTHING
RETURNING business_id, notice_id, endpoint_id`,
});

export const DELIVERIES_FOR_SENDING = defineStatement<[businessIds: string[], noticeIds: string[], endpointIds: string[]], SendingRow>({
  name: 'deliveries_for_sending',
  text: `SELECT d.id, d.business_id AS "businessId", d.notice_id AS "noticeId", d.endpoint_id AS "endpointId",
       d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt", n.payload,
       coalesce(b.live_business_id, b.id) AS "liveBusinessId", b.live_business_id IS NOT NULL AS sandbox,
       e.url, e.secret AS "sealedSecret", e.previous_secret AS "sealedPreviousSecret",
       e.previous_secret_expires_at AS "previousSecretExpiresAt", e.enabled, e.disabled_reason AS "disabledReason",
       e.api_version AS "apiVersion"
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS ref(business_id, notice_id, endpoint_id)
  JOIN notice_deliveries d ON d.business_id = ref.business_id AND d.notice_id = ref.notice_id AND d.endpoint_id = ref.endpoint_id
  JOIN notices n ON n.id = d.notice_id
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  JOIN businesses b ON b.id = d.business_id`,
});

const RECORD_DELIVERED = defineStatement<
  [
    attemptIds: string[],
    deliveryIds: string[],
    businessIds: string[],
    endpointIds: string[],
    attemptedAt: Date[],
    statusCodes: (number | null)[],
    durationsMs: number[],
    errors: (string | null)[],
    deliveredAt: Date[],
    ...exchange: ExchangeColumns,
  ]
>({
  name: 'record_deliveries_delivered',
  text: `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::timestamptz[],
                       $10::text[], $11::jsonb[], $12::text[], $13::text[], $14::text[], $15::text[])
      AS t(attempt_id, delivery_id, business_id, endpoint_id, attempted_at, status_code, duration_ms, error, delivered_at,
           request_url, request_headers, api_version, request_body_sha256, response_excerpt, failure)
), attempt AS (
  INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error,
                                 request_url, request_headers, api_version, request_body_sha256, response_excerpt, failure)
  SELECT i.attempt_id, i.delivery_id, d.endpoint_id, d.attempts + 1, i.attempted_at, i.status_code, i.duration_ms, i.error,
         i.request_url, i.request_headers, i.api_version, decode(i.request_body_sha256, 'hex'), i.response_excerpt, i.failure
    FROM input i JOIN notice_deliveries d ON d.business_id = i.business_id AND d.id = i.delivery_id
  ON CONFLICT (id) DO NOTHING
  RETURNING id, delivery_id
), per_delivery AS (
  SELECT a.delivery_id, count(*)::int AS made, max(i.delivered_at) AS delivered_at
    FROM attempt a JOIN input i ON i.attempt_id = a.id
   GROUP BY a.delivery_id
), delivered AS (
  UPDATE notice_deliveries d
     SET attempts = d.attempts + p.made, status = 'DELIVERED', next_attempt_at = NULL, delivered_at = p.delivered_at, updated_at = now()
    FROM per_delivery p
   WHERE d.id = p.delivery_id
)
UPDATE webhook_endpoints SET failing_since = NULL, updated_at = now()
 WHERE (business_id, id) IN (SELECT business_id, endpoint_id FROM input) AND failing_since IS NOT NULL`,
});

/**
 * An attempt, if its delivery is still there: an endpoint or notice deleted meanwhile took the
 * delivery with it. The delivery is locked (KEY SHARE) so that it cannot go between this check and
 * the commit; one deleted after the transaction's snapshot is skipped, not a foreign-key error.
 */
const INSERT_ATTEMPT = defineStatement<
  [
    id: string,
    deliveryId: string,
    endpointId: string,
    attempt: number,
    attemptedAt: Date,
    statusCode: number | null,
    durationMs: number,
    error: string | null,
    requestUrl: string | null,
    requestHeaders: string | null,
    apiVersion: string | null,
    requestBodySha256: Buffer | null,
    responseExcerpt: string | null,
    failure: string | null,
  ]
>({
  name: 'insert_delivery_attempt',
  text: `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error,
                               request_url, request_headers, api_version, request_body_sha256, response_excerpt, failure)
SELECT $1, d.id, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14 FROM notice_deliveries d WHERE d.id = $2
   FOR KEY SHARE`,
});

/**
 * An endpoint's attempts since a time, newest first, before a keyset position (null: from the
 * newest). What follows each (docs/design-record.md#d23) is read from the rows, not stored: the
 * next attempt of its delivery when there is one (numbered one more: a retry; numbered 1: a
 * redelivery started a new schedule, so this one was final), else the delivery's own schedule
 * when it is still PENDING after exactly this attempt.
 */
export const ENDPOINT_ATTEMPTS_PAGE = defineStatement<
  [endpointId: string, since: Date, beforeTime: string | null, beforeId: string | null, limit: number],
  EndpointAttemptRow
>({
  name: 'endpoint_delivery_attempts_page',
  text: `SELECT a.id, d.notice_id AS "eventId", n.type AS "eventType", a.attempt, a.attempted_at AS "attemptedAt",
       a.status_code AS "statusCode", a.duration_ms AS "durationMs", a.error,
       CASE WHEN f.attempt IS NOT NULL THEN CASE WHEN f.attempt = a.attempt + 1 THEN f.attempted_at END
            WHEN d.status = 'PENDING' AND d.attempts = a.attempt THEN d.next_attempt_at END AS "nextAttemptAt",
       NOT coalesce(CASE WHEN f.attempt IS NOT NULL THEN f.attempt = a.attempt + 1
                         ELSE d.status = 'PENDING' AND d.attempts = a.attempt END, false) AS final,
       (extract(epoch FROM a.attempted_at) * 1000000)::bigint::text AS position
  FROM delivery_attempts a
  JOIN notice_deliveries d ON d.id = a.delivery_id
  JOIN notices n ON n.id = d.notice_id
  LEFT JOIN LATERAL (
       SELECT b.attempt, b.attempted_at FROM delivery_attempts b
        WHERE b.delivery_id = a.delivery_id AND (b.attempted_at, b.id) > (a.attempted_at, a.id)
        ORDER BY b.attempted_at, b.id LIMIT 1) f ON true
 WHERE a.endpoint_id = $1 AND a.attempted_at >= $2
   AND ($3::timestamptz IS NULL OR (a.attempted_at, a.id) < ($3::timestamptz, $4::uuid))
 ORDER BY a.attempted_at DESC, a.id DESC
 LIMIT $5`,
});

/**
 * Queues a notice again for these endpoints with the same notice id: a delivery that finished
 * (DELIVERED or FAILED) starts a fresh schedule, one that never existed (an endpoint subscribed
 * later, or named explicitly) is created, and one still PENDING is left to run. What happened
 * before stays (docs/design-record.md#d23): the attempts, and delivered_at, when it was received.
 */
export const REDELIVER = defineStatement<[ids: string[], businessId: string, noticeId: string, endpointIds: string[]], RefRow>({
  name: 'redeliver_notice',
  text: `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, created_at, updated_at)
SELECT t.id, $2, $3, t.endpoint_id, 'PENDING', 0, now(), now(), now()
  FROM unnest($1::uuid[], $4::uuid[]) AS t(id, endpoint_id)
ON CONFLICT (notice_id, endpoint_id) DO UPDATE
   SET status = 'PENDING', attempts = 0, next_attempt_at = now(), updated_at = now()
 WHERE notice_deliveries.status <> 'PENDING'
RETURNING business_id, notice_id, endpoint_id`,
});

/**
 * A test ping as it is kept in the delivery log (docs/design-record.md#d23): its notice (relayed
 * already, so the relay never takes it; never in the event log, which lists the notice types only),
 * one delivery, finished, and its one attempt, in one statement. Nothing when the endpoint was
 * deleted meanwhile.
 */
const RECORD_TEST_PING = defineStatement<
  [
    noticeId: string,
    businessId: string,
    endpointId: string,
    payload: string,
    deliveryId: string,
    attemptedAt: Date,
    attemptId: string,
    statusCode: number | null,
    durationMs: number,
    error: string | null,
    delivered: boolean,
    requestUrl: string | null,
    requestHeaders: string | null,
    apiVersion: string,
    requestBody: string | null,
  ]
>({
  name: 'record_test_ping',
  text: `WITH endpoint AS (
  SELECT id FROM webhook_endpoints WHERE business_id = $2 AND id = $3
), notice AS (
  INSERT INTO notices (id, business_id, type, payload, created_at, relayed_at)
  SELECT $1, $2, 'webhook.test', $4::jsonb, $6, $6 FROM endpoint
  RETURNING id
), delivery AS (
  INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, delivered_at, created_at, updated_at)
  SELECT $5, $2, notice.id, $3, CASE WHEN $11::boolean THEN 'DELIVERED' ELSE 'FAILED' END, 1, NULL,
         CASE WHEN $11::boolean THEN $6::timestamptz END, $6, $6
    FROM notice
  RETURNING id
)
INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error,
                               request_url, request_headers, api_version, request_body_sha256, request_body, failure)
SELECT $7, delivery.id, $3, 1, $6, $8, $9, $10, $12, $13::jsonb, $14, sha256(convert_to($15, 'UTF8')), $15,
       CASE WHEN NOT $11::boolean THEN $10 END
  FROM delivery`,
});

/**
 * A test ping to keep in the delivery log: what was sent and how it fared. Its body is kept as
 * sent (built from the request, it is not rebuilt from the stored notice); its answer is not, nor
 * more of a failure than its class (docs/design-record.md#d25).
 */
export interface TestPingRecord {
  noticeId: string;
  businessId: string;
  endpointId: string;
  /** The body as built (the current version's shape). */
  payload: unknown;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  delivered: boolean;
  /** The address posted to, the headers as sent (null when nothing was sent), the version and the body. */
  requestUrl: string;
  requestHeaders: [string, string][] | null;
  apiVersion: string;
  requestBody: string;
}

const SETTLE = defineStatement<
  [businessId: string, id: string, status: DeliveryStatus, nextAttemptAt: Date | null, deliveredAt: Date | null]
>({
  name: 'settle_notice_delivery',
  text: `UPDATE notice_deliveries
   SET attempts = attempts + 1, status = $3, next_attempt_at = $4, delivered_at = coalesce($5, delivered_at), updated_at = now()
 WHERE business_id = $1 AND id = $2`,
});

export const FAIL_PENDING_OF_ENDPOINT = defineStatement<[businessId: string, endpointId: string]>({
  name: 'fail_pending_deliveries_of_endpoint',
  text: `UPDATE notice_deliveries SET status = 'FAILED', next_attempt_at = NULL, updated_at = now()
 WHERE business_id = $1 AND endpoint_id = $2 AND status = 'PENDING'`,
});

export const DUE_DELIVERIES = defineStatement<
  [now: Date | null, afterTime: Date | null, afterId: string | null, limit: number],
  DueDelivery
>({
  name: 'due_notice_deliveries',
  text: `SELECT id, business_id AS "businessId", notice_id AS "noticeId", endpoint_id AS "endpointId",
       next_attempt_at AS "nextAttemptAt"
  FROM notice_deliveries
 WHERE status = 'PENDING' AND next_attempt_at <= COALESCE($1::timestamptz, now())
   AND ($2::timestamptz IS NULL OR (next_attempt_at, id) > ($2::timestamptz, $3::uuid))
 ORDER BY next_attempt_at, id
 LIMIT $4`,
});

export const LIST_DELIVERIES = defineStatement<
  [businessId: string, status: DeliveryStatus | null, noticeId: string | null, limit: number],
  DeliveryListRow
>({
  name: 'list_notice_deliveries',
  text: `SELECT d.id, d.notice_id AS "noticeId", n.type, d.endpoint_id AS "endpointId", e.url, d.status, d.attempts,
       d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt",
       d.created_at AS "createdAt", d.updated_at AS "updatedAt",
       a.attempted_at AS "attemptedAt", a.status_code AS "statusCode", a.duration_ms AS "durationMs", a.error
  FROM notice_deliveries d
  JOIN notices n ON n.id = d.notice_id
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  LEFT JOIN LATERAL (
       SELECT attempted_at, status_code, duration_ms, error FROM delivery_attempts
        WHERE delivery_id = d.id ORDER BY attempted_at DESC, id DESC LIMIT 1) a ON true
 WHERE d.business_id = $1
   AND ($2::text IS NULL OR d.status = $2)
   AND ($3::uuid IS NULL OR d.notice_id = $3)
 ORDER BY d.created_at DESC, d.id DESC
 LIMIT $4`,
});

const REQUEUE = defineStatement<[businessId: string, noticeId: string], RefRow>({
  name: 'requeue_notice_deliveries',
  text: `UPDATE notice_deliveries
   SET status = 'PENDING', attempts = 0, next_attempt_at = now(), updated_at = now()
 WHERE business_id = $1 AND notice_id = $2 AND status IN ('DELIVERED', 'FAILED')
 RETURNING business_id, notice_id, endpoint_id`,
});

@Injectable()
export class NoticeDeliveriesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Inserts deliveries, skipping any that exist (one per notice and endpoint), and returns the
   * ones inserted. One array per column, so the statement is the same whatever the batch size and
   * costs no query building per row (the relay inserts up to hundreds at a time).
   */
  async insertMany(deliveries: readonly NewDelivery[]): Promise<DeliveryRef[]> {
    if (deliveries.length === 0) return [];
    const column = <T>(pick: (delivery: NewDelivery) => T): T[] => deliveries.map(pick);
    const rows = await this.database.rows(INSERT_DELIVERIES, [
      column((d) => d.id),
      column((d) => d.businessId),
      column((d) => d.noticeId),
      column((d) => d.endpointId),
      column((d) => d.status),
      column((d) => d.attempts),
      column((d) => d.nextAttemptAt),
      column((d) => d.deliveredAt),
      column((d) => d.createdAt),
      column((d) => d.updatedAt),
    ]);
    return rows.map((row) => ({ businessId: row.business_id, noticeId: row.notice_id, endpointId: row.endpoint_id }));
  }

  /**
   * The deliveries to send, with their notice's body and their endpoint's address and secrets, in
   * one round trip however many: the answer at each index is that ref's delivery, or null when it
   * no longer exists.
   */
  async findManyForSending(refs: readonly DeliveryRef[]): Promise<(DeliveryToSend | null)[]> {
    if (refs.length === 0) return [];
    const rows = await this.database.rows(DELIVERIES_FOR_SENDING, [
      refs.map((ref) => ref.businessId),
      refs.map((ref) => ref.noticeId),
      refs.map((ref) => ref.endpointId),
    ]);
    const found = new Map(rows.map((row) => [refKey(row), row]));
    return refs.map((ref) => {
      const row = found.get(refKey(ref));
      if (!row) return null;
      return {
        id: row.id,
        businessId: row.businessId,
        noticeId: row.noticeId,
        endpointId: row.endpointId,
        status: row.status,
        attempts: row.attempts,
        nextAttemptAt: row.nextAttemptAt,
        payload: row.payload,
        liveBusinessId: row.liveBusinessId,
        sandbox: row.sandbox,
        endpoint: {
          url: row.url,
          sealedSecret: row.sealedSecret,
          sealedPreviousSecret: row.sealedPreviousSecret,
          previousSecretExpiresAt: row.previousSecretExpiresAt,
          enabled: row.enabled,
          disabledReason: row.disabledReason,
          apiVersion: row.apiVersion,
        },
      };
    });
  }

  /**
   * Successful attempts, in one statement however many: each attempt row, its delivery DELIVERED,
   * and its endpoint's run of failures (if one was going) ended. A single statement is atomic
   * without a transaction. Repeating an attempt (same id) changes nothing, so a batch whose
   * answer was lost can be recorded again; an attempt whose delivery is gone (purged) is dropped.
   */
  async recordManyDelivered(records: readonly DeliveredRecord[]): Promise<void> {
    if (records.length === 0) return;
    const column = <T>(pick: (record: DeliveredRecord) => T): T[] => records.map(pick);
    await this.database.execute(RECORD_DELIVERED, [
      column((r) => r.attempt.id),
      column((r) => r.delivery.id),
      column((r) => r.delivery.businessId),
      column((r) => r.delivery.endpointId),
      column((r) => r.attempt.attemptedAt),
      column((r) => r.attempt.statusCode),
      column((r) => r.attempt.durationMs),
      column((r) => r.attempt.error),
      column((r) => r.deliveredAt),
      column((r) => r.attempt.requestUrl),
      column((r) => jsonOrNull(r.attempt.requestHeaders)),
      column((r) => r.attempt.apiVersion),
      column((r) => r.attempt.requestBodySha256?.toString('hex') ?? null),
      column((r) => r.attempt.responseExcerpt),
      column((r) => r.attempt.failure),
    ]);
  }

  /** False when the delivery is gone (its endpoint or notice deleted meanwhile): nothing was recorded. */
  async insertAttempt(attempt: NewAttempt): Promise<boolean> {
    const inserted = await this.database.execute(INSERT_ATTEMPT, [
      attempt.id,
      attempt.deliveryId,
      attempt.endpointId,
      attempt.attempt,
      attempt.attemptedAt,
      attempt.statusCode,
      attempt.durationMs,
      attempt.error,
      attempt.requestUrl,
      jsonOrNull(attempt.requestHeaders),
      attempt.apiVersion,
      attempt.requestBodySha256,
      attempt.responseExcerpt,
      attempt.failure,
    ]);
    return inserted > 0;
  }

  /** Keeps a test ping in the delivery log as a finished delivery of `webhook.test` (RECORD_TEST_PING). */
  async recordTestPing(ping: TestPingRecord): Promise<void> {
    await this.database.execute(RECORD_TEST_PING, [
      ping.noticeId,
      ping.businessId,
      ping.endpointId,
      JSON.stringify(ping.payload),
      newId(),
      ping.attemptedAt,
      newId(),
      ping.statusCode,
      ping.durationMs,
      ping.error,
      ping.delivered,
      ping.requestHeaders === null ? null : ping.requestUrl,
      jsonOrNull(ping.requestHeaders),
      ping.apiVersion,
      ping.requestHeaders === null ? null : ping.requestBody,
    ]);
  }

  /** Counts one more attempt and sets where the delivery stands after it. */
  async settle(businessId: string, deliveryId: string, update: DeliveryUpdate): Promise<void> {
    await this.database.execute(SETTLE, [businessId, deliveryId, update.status, update.nextAttemptAt, update.deliveredAt]);
  }

  /** Fails every pending delivery of an endpoint that was just disabled; their jobs then find nothing to do. */
  failPendingOfEndpoint(businessId: string, endpointId: string): Promise<number> {
    return this.database.execute(FAIL_PENDING_OF_ENDPOINT, [businessId, endpointId]);
  }

  /**
   * Pending deliveries whose next attempt is due by `now` (null: the database's clock), in the
   * order they fell due, after the `after` key (keyset paging). Across businesses: the worker's
   * sweep serves them all.
   */
  findDue(now: Date | null, after: { nextAttemptAt: Date; id: string } | null, limit: number): Promise<DueDelivery[]> {
    return this.database.rows(DUE_DELIVERIES, [now, after?.nextAttemptAt ?? null, after?.id ?? null, limit]);
  }

  async list(businessId: string, filter: DeliveryFilter): Promise<DeliveryListItem[]> {
    const rows = await this.database.rows(LIST_DELIVERIES, [businessId, filter.status ?? null, filter.noticeId ?? null, filter.limit]);
    return rows.map(({ attemptedAt, statusCode, durationMs, error, ...delivery }) => ({
      ...delivery,
      lastAttempt: attemptedAt === null ? null : { attemptedAt, statusCode, durationMs: durationMs ?? 0, error },
    }));
  }

  /** An endpoint's attempts since `since`, newest first, strictly before `before` in (attempted_at, id) order. */
  async endpointAttempts(
    endpointId: string,
    since: Date,
    before: KeysetPosition | null,
    take: number,
  ): Promise<PositionedRow<EndpointAttempt>[]> {
    const rows = await this.database.rows(ENDPOINT_ATTEMPTS_PAGE, [
      endpointId,
      since,
      before === null ? null : toTimestampLiteral(before.micros),
      before?.id ?? null,
      take,
    ]);
    return rows.map(({ position, ...attempt }) => ({ record: attempt, position: { micros: BigInt(position), id: attempt.id } }));
  }

  /** Queues the notice again for these endpoints (see REDELIVER); returns the deliveries queued. */
  async redeliver(businessId: string, noticeId: string, endpointIds: readonly string[]): Promise<DeliveryRef[]> {
    if (endpointIds.length === 0) return [];
    const rows = await this.database.rows(REDELIVER, [endpointIds.map(() => newId()), businessId, noticeId, [...endpointIds]]);
    return rows.map((row) => ({ businessId: row.business_id, noticeId: row.notice_id, endpointId: row.endpoint_id }));
  }

  /**
   * Puts the notice's finished deliveries (DELIVERED or FAILED) back to PENDING, due now, with a
   * fresh schedule (their attempts stay in delivery_attempts). Returns the deliveries requeued.
   */
  async requeue(businessId: string, noticeId: string): Promise<DeliveryRef[]> {
    const rows = await this.database.rows(REQUEUE, [businessId, noticeId]);
    return rows.map((row) => ({ businessId: row.business_id, noticeId: row.notice_id, endpointId: row.endpoint_id }));
  }
}
