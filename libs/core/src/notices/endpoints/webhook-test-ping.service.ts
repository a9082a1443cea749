import { Inject, Injectable } from '@nestjs/common';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { newId } from '#database/new-id.js';
import { CLOCK, type Clock } from '../../clock/clock.js';
import { TenantSlots } from '../../concurrency/tenant-slots.js';
import { DomainError } from '../../errors/domain-error.js';
import { NoticeDeliveriesRepository } from '../delivery/notice-deliveries.repository.js';
import { NOTICE_SEND_LIMITS, NoticeSender, type NoticeSendLimits } from '../delivery/notice-sender.js';
import type { SendFailure } from '../delivery/send-failure.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { activeSecrets, signNotice } from '../delivery/webhook-signature.js';

/** The notice type of a test (docs/design-record.md#d17): never one an endpoint subscribes to. */
export const TEST_NOTICE_TYPE = 'webhook.test';

/** Test pings under way at once, per business (live and sandbox together) and per API process (docs/design-record.md#d24). */
export const TEST_PINGS_PER_BUSINESS = 2;
export const TEST_PINGS_PER_PROCESS = 8;

/** What became of a test notice. */
export interface TestPingResult {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The class of the failure (docs/design-record.md#d25), never the receiver's words; null when delivered. */
  error: SendFailure | null;
}

/** Who asks for the ping: the business whose endpoint it is, and the tenant whose share it takes. */
export interface PingingBusiness {
  id: string;
  slug: string;
  /** The live business's id (a sandbox's pings count as its live business's). */
  tenantId: string;
}

/**
 * POST /webhook-endpoints/{id}/test (docs/design-record.md#d17): one `webhook.test` notice, signed
 * as every notice is and sent by the same sender (the address checked again, 15 s in all, no
 * redirect followed), to this endpoint only, at once and outside the outbox: there is nothing to
 * retry. Since 1.4.0 it is kept in the endpoint's delivery log, as a finished delivery of
 * `webhook.test` (docs/design-record.md#d23). An endpoint that is not active is tested too: that is how a business
 * finds out whether it can be enabled again.
 *
 * A ping waits on a stranger for up to 15 s, so how many run at once is bounded per business and
 * per process (docs/design-record.md#d24): beyond, 429 at once rather than a queue that one
 * business could fill. It holds no database connection while it waits (the sender refuses to run
 * inside a transaction, and the route runs outside the idempotent write's).
 */
@Injectable()
export class WebhookTestPingService {
  private readonly slots = new TenantSlots({ perTenant: TEST_PINGS_PER_BUSINESS, total: TEST_PINGS_PER_PROCESS });

  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly sender: NoticeSender,
    private readonly deliveryLog: NoticeDeliveriesRepository,
    @Inject(NOTICE_SEND_LIMITS) private readonly limits: NoticeSendLimits,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly shaper: AnswerShaper,
  ) {}

  async ping(business: PingingBusiness, endpointId: string): Promise<TestPingResult> {
    const endpoint = await this.endpoints.get(business.id, endpointId);
    const slot = this.slots.tryTake(business.tenantId);
    if (!slot) throw this.tooMany(business.tenantId);
    try {
      const now = this.clock.now();
      const id = newId();
      const createdAt = now.toISOString();
      // Shaped for the endpoint's version like every notice (docs/design-record.md#d22); a sandbox's is `test`.
      const notice = {
        id,
        type: TEST_NOTICE_TYPE,
        createdAt,
        business: business.slug,
        mode: business.id === business.tenantId ? 'live' : 'test',
        data: { id: endpoint.id, occurredAt: createdAt },
      };
      const body = JSON.stringify(this.shaper.shapeNotice(endpoint.apiVersion, TEST_NOTICE_TYPE, notice));
      const timestamp = Math.floor(now.getTime() / 1000);
      const result = await this.sender.send({
        tenantId: business.tenantId,
        url: endpoint.url,
        id,
        timestamp,
        body,
        signature: signNotice({ id, timestamp, body, secrets: activeSecrets(endpoint, now) }),
      });
      // Kept in the endpoint's delivery log once the answer is in, so no connection is held while it
      // waits (docs/design-record.md#d23); with the class of a failure only, as the answer says it,
      // so the log does not make the ping read what any host answers (docs/design-record.md#d25).
      await this.deliveryLog.recordTestPing({
        noticeId: id,
        businessId: business.id,
        endpointId: endpoint.id,
        payload: notice,
        attemptedAt: now,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.failure,
        delivered: result.delivered,
        requestUrl: endpoint.url,
        requestHeaders: result.requestHeaders,
        apiVersion: endpoint.apiVersion,
        requestBody: body,
      });
      return { delivered: result.delivered, statusCode: result.statusCode, durationMs: result.durationMs, error: result.failure };
    } finally {
      slot.release();
    }
  }

  private tooMany(tenantId: string): DomainError {
    // A ping ends within the sender's time limit: by then a slot is free again.
    const retryAfterSeconds = Math.ceil(this.limits.totalTimeoutMs / 1000);
    const detail =
      this.slots.heldBy(tenantId) >= TEST_PINGS_PER_BUSINESS
        ? `At most ${TEST_PINGS_PER_BUSINESS} test pings of a business run at once (its sandbox's included); wait for one to finish.`
        : 'Too many test pings are under way on this server; try again shortly.';
    return new DomainError('API_RATE_LIMIT', detail, [], retryAfterSeconds);
  }
}
