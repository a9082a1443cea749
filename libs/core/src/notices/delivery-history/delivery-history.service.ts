import { Inject, Injectable } from '@nestjs/common';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { isApiVersion } from '#contract/versions/api-versions.js';
import { CLOCK, type Clock } from '../../clock/clock.js';
import { notFound, validationFailed, type FieldError } from '../../errors/domain-error.js';
import { isUuid } from '../../ids/uuid.js';
import { CursorCodec, type CursorScope } from '../../pagination/cursor-codec.js';
import { paginate, type Page, type PageParams } from '../../pagination/page.js';
import { bodyDigest, noticeAsSent } from '../delivery/notice-as-sent.js';
import { attemptErrorText } from '../delivery/send-failure.js';
import { TEST_NOTICE_TYPE } from '../endpoints/webhook-test-ping.service.js';
import {
  DELIVERY_STANDINGS,
  DeliveryHistoryRepository,
  type DeliveryStanding,
  type StoredAttempt,
  type StoredDelivery,
  type StoredDeliveryWithNotice,
} from './delivery-history.repository.js';

export { DELIVERY_STANDINGS, type DeliveryStanding } from './delivery-history.repository.js';

/** The most deliveries a page lists. */
export const DELIVERY_PAGE_MAX = 100;

export interface DeliveryHistoryFilters {
  eventType?: string;
  outcome?: DeliveryStanding;
  endpointId?: string;
}

/** One notice on its way to one endpoint: a row of the console's deliveries page (docs/design-record.md#d29). */
export interface DeliverySummary {
  deliveryId: string;
  noticeId: string;
  eventType: string;
  /** When what the notice is about happened (its `data.occurredAt`; else when the notice was made). */
  occurredAt: Date;
  endpoint: { id: string; url: string };
  outcome: DeliveryStanding;
  /**
   * When the next attempt is made, only while one is to come and only when that is still ahead:
   * null when none is to come, and null too when it is due (the worker is about to make it).
   */
  nextAttemptAt: Date | null;
  /** Every attempt recorded, whatever schedule. */
  attemptCount: number;
  lastAttempt: { attemptedAt: Date; statusCode: number | null; durationMs: number } | null;
  /**
   * Null unless the notice was sent again to this endpoint (same notice, same endpoint, a fresh
   * schedule, docs/design-record.md#d23): which schedule this is (2 for the first sending again),
   * and when the first schedule's first attempt was made.
   */
  sentAgain: { schedule: number; firstAttemptedAt: Date | null } | null;
  /** It can be sent again (NoticeDeliveriesService.sendAgain): not a test ping's. */
  canSendAgain: boolean;
}

/** What an attempt sent; null in DeliveryAttempt when nothing left (refused address, disabled endpoint) or it was recorded before requests were kept. */
export interface SentRequest {
  url: string;
  /** As sent, in order, the signature among them. */
  headers: [string, string][];
  /**
   * The body exactly as sent, byte for byte; null when it cannot be shown exactly (the notice
   * rebuilt for the attempt's version no longer matches what was sent).
   */
  body: string | null;
}

export interface DeliveryAttempt {
  /** Its number within its schedule, from 1. */
  number: number;
  /** Which schedule: 1, then one more for each time the notice was sent again. */
  schedule: number;
  attemptedAt: Date;
  request: SentRequest | null;
  /** The answer's status; null when none came. */
  statusCode: number | null;
  /** The first 1 KB of the answer's body as text; null when none (or a test ping's, docs/design-record.md#d25). */
  responseExcerpt: string | null;
  durationMs: number;
  /** What went wrong, in words an owner reads (attemptErrorText); null when it was delivered. */
  error: string | null;
}

export interface DeliveryDetail extends DeliverySummary {
  /** Oldest first. */
  attempts: DeliveryAttempt[];
}

function isStanding(value: string): value is DeliveryStanding {
  return (DELIVERY_STANDINGS as readonly string[]).includes(value);
}

/**
 * The console's delivery log (docs/design-record.md#d29): a business's deliveries, one per notice
 * and endpoint, with their attempts beneath. A sandbox is a business row of its own
 * (docs/design-record.md#d19), so the business id alone says whose; another business's delivery
 * is not found. Sending one again is NoticeDeliveriesService.sendAgain.
 */
@Injectable()
export class DeliveryHistory {
  constructor(
    private readonly deliveries: DeliveryHistoryRepository,
    private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly shaper: AnswerShaper,
  ) {}

  /** The business's deliveries, newest first (by when the delivery was first queued), a page at a time. */
  async list(businessId: string, filters: DeliveryHistoryFilters, page: PageParams): Promise<Page<DeliverySummary>> {
    const errors: FieldError[] = [];
    const { eventType, outcome, endpointId } = filters;
    if (eventType !== undefined && (eventType === '' || eventType.length > 100)) {
      errors.push({ path: '/eventType', message: 'must be a notice type' });
    }
    if (outcome !== undefined && !isStanding(outcome)) {
      errors.push({ path: '/outcome', message: `must be one of ${DELIVERY_STANDINGS.join(', ')}` });
    }
    if (endpointId !== undefined && !isUuid(endpointId)) errors.push({ path: '/endpointId', message: 'must be a UUID' });
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > DELIVERY_PAGE_MAX) {
      errors.push({ path: '/limit', message: `must be an integer from 1 to ${DELIVERY_PAGE_MAX}` });
    }
    if (errors.length > 0) throw validationFailed(errors);
    const filter = { eventType: eventType ?? null, standing: outcome ?? null, endpointId: endpointId?.toLowerCase() ?? null };
    const scope: CursorScope = { list: 'webhook-deliveries', businessId, filters: { console: 'deliveries', ...filter } };
    const now = this.clock.now();
    return paginate(this.cursors, scope, page, async ({ after, take }) =>
      (await this.deliveries.page(businessId, filter, after, take)).map((row) => ({
        record: summaryOf(row.record, now),
        position: row.position,
      })),
    );
  }

  /** One delivery with its attempts; not found when it is not this business's. */
  async detail(businessId: string, deliveryId: string): Promise<DeliveryDetail> {
    const delivery = isUuid(deliveryId) ? await this.deliveries.findById(businessId, deliveryId) : null;
    if (!delivery) throw notFound('The delivery');
    const attempts = await this.deliveries.attemptsOf(businessId, delivery.id);
    return { ...summaryOf(delivery, this.clock.now()), attempts: attempts.map((attempt) => attemptOf(this.shaper, delivery, attempt)) };
  }
}

function summaryOf(row: StoredDelivery, now: Date): DeliverySummary {
  const occurredAt = row.occurredAt === null ? null : new Date(row.occurredAt);
  // A redelivery not yet tried (PENDING, no attempt of its schedule) is the schedule after the last one begun.
  const schedule = row.schedules + (row.status === 'PENDING' && row.scheduleAttempts === 0 && row.schedules > 0 ? 1 : 0);
  const toCome = row.status === 'PENDING' && row.nextAttemptAt !== null && row.nextAttemptAt.getTime() > now.getTime();
  return {
    deliveryId: row.id,
    noticeId: row.noticeId,
    eventType: row.eventType,
    occurredAt: occurredAt !== null && !Number.isNaN(occurredAt.getTime()) ? occurredAt : row.noticeCreatedAt,
    endpoint: { id: row.endpointId, url: row.endpointUrl },
    outcome: row.standing,
    nextAttemptAt: toCome ? row.nextAttemptAt : null,
    attemptCount: row.attemptCount,
    lastAttempt:
      row.lastAttemptedAt === null
        ? null
        : { attemptedAt: row.lastAttemptedAt, statusCode: row.lastStatusCode, durationMs: row.lastDurationMs ?? 0 },
    sentAgain: schedule > 1 ? { schedule, firstAttemptedAt: row.firstAttemptedAt } : null,
    canSendAgain: row.eventType !== TEST_NOTICE_TYPE,
  };
}

function attemptOf(shaper: AnswerShaper, delivery: StoredDeliveryWithNotice, attempt: StoredAttempt): DeliveryAttempt {
  return {
    number: attempt.attempt,
    schedule: attempt.schedule,
    attemptedAt: attempt.attemptedAt,
    request:
      attempt.requestUrl === null || attempt.requestHeaders === null
        ? null
        : { url: attempt.requestUrl, headers: attempt.requestHeaders, body: bodySent(shaper, delivery, attempt) },
    statusCode: attempt.statusCode,
    responseExcerpt: attempt.responseExcerpt,
    durationMs: attempt.durationMs,
    error: attemptErrorText(attempt),
  };
}

/**
 * The body an attempt sent: kept when it could not be rebuilt (a test ping's), else rebuilt from
 * the notice for the attempt's version and shown only when its digest is the one recorded, so
 * what is shown is what was sent, byte for byte, or nothing.
 */
function bodySent(shaper: AnswerShaper, delivery: StoredDeliveryWithNotice, attempt: StoredAttempt): string | null {
  if (attempt.requestBody !== null) return attempt.requestBody;
  if (attempt.requestBodySha256 === null || !isApiVersion(attempt.apiVersion)) return null;
  let body: string;
  try {
    body = noticeAsSent(shaper, delivery.payload, delivery.sandbox ? 'test' : 'live', attempt.apiVersion);
  } catch {
    return null;
  }
  return bodyDigest(body).equals(attempt.requestBodySha256) ? body : null;
}
