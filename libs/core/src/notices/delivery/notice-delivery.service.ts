import { Inject, Injectable, Logger } from '@nestjs/common';
import { Database } from '#database/database.js';
import { AppConfig } from '#config/app-config.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { newId } from '#database/new-id.js';
import { nextRetryDelayMs } from './retry-schedule.js';
import { CLOCK, type Clock } from '../../clock/clock.js';
import { bodyDigest, noticeAsSent } from './notice-as-sent.js';
import { NOT_SENT } from './send-failure.js';
import { SecretsCipher } from '../../secrets/secrets-cipher.js';
import { NoticeDeliveriesRepository, type DeliveryRef, type DeliveryToSend, type NewAttempt } from './notice-deliveries.repository.js';
import { NoticeDeliveryBatches } from './notice-delivery-batches.js';
import { NoticeSender, type SendResult } from './notice-sender.js';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository.js';
import { activeSecrets, signNotice } from './webhook-signature.js';

/** An endpoint failing this long without a single success is disabled (docs/design-record.md#d9). */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** A job that runs this much before its delivery is due waits instead (clocks of two machines differ a little). */
const EARLY_TOLERANCE_MS = 1_000;

/** The outcome of a job whose delivery went with its endpoint or its notice (deleted, purged). */
export const DELIVERY_GONE: DeliveryOutcome = { kind: 'skipped', reason: 'the delivery no longer exists' };

/**
 * The business's delivery log says what it can do about it; what the cipher said (a key id, a
 * damaged value) is for the operators' log only.
 */
const SECRET_UNUSABLE = "not sent: the endpoint's signing secret cannot be opened by the service; rotating the secret replaces it";

/** Where a delivery stands after one run of its job. */
export type DeliveryOutcome =
  /** The receiver answered 2xx. */
  | { kind: 'delivered'; statusCode: number }
  /** Nothing to do: the delivery is gone (purged) or no longer PENDING (finished, replayed twice). */
  | { kind: 'skipped'; reason: string }
  /** Nothing sent: the job ran before the delivery is due (a BullMQ retry after an unexpected error). */
  | { kind: 'wait'; until: Date }
  /** The attempt failed and was recorded; the next one is due at `retryAt`. */
  | { kind: 'retry'; retryAt: Date; error: string }
  /** The attempt failed and was recorded, and it was the last: the delivery is FAILED. */
  | { kind: 'failed'; error: string };

/** Why a failed attempt disables its endpoint (docs/design-record.md#d9): a 410 Gone, or 5 days of failures in a row. */
function reasonToDisable(result: SendResult, failingSince: Date, attemptedAt: Date): string | null {
  if (result.statusCode === 410) return 'the endpoint answered 410 Gone';
  if (attemptedAt.getTime() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS) {
    return `every delivery has failed since ${failingSince.toISOString()} (5 days)`;
  }
  return null;
}

/** An attempt that never left: nothing was sent, for `error` (its code: `failureCode`). */
function unsent(error: string, failureCode: string): SendResult {
  return {
    delivered: false,
    statusCode: null,
    durationMs: 0,
    error,
    failure: 'refused',
    retryAfterMs: null,
    failureCode,
    requestHeaders: null,
    responseExcerpt: null,
  };
}

interface AttemptRecord {
  attemptedAt: Date;
  result: SendResult;
  /** The body sent; absent when the attempt never left. */
  body?: string;
}

/**
 * Delivers a notice to one endpoint, one attempt per call (docs/design-record.md#d9), and records every attempt in
 * delivery_attempts with the delivery's new state, in one transaction. The retry schedule lives
 * in the database (attempts, next_attempt_at), so it survives a Redis that lost its data.
 */
@Injectable()
export class NoticeDeliveryService {
  private readonly logger = new Logger(NoticeDeliveryService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly database: Database,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly batches: NoticeDeliveryBatches,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly sender: NoticeSender,
    private readonly cipher: SecretsCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly shaper: AnswerShaper,
  ) {}

  /** The delivery with what sending it takes, looked up in a batch with the others of the moment. */
  find(ref: DeliveryRef): Promise<DeliveryToSend | null> {
    return this.batches.findForSending(ref);
  }

  /**
   * What a job does when no attempt is to be made now: nothing when the delivery is no longer
   * PENDING (skipped), wait when its next attempt is not due yet. Null when one is due.
   */
  withoutAttempt(delivery: DeliveryToSend): DeliveryOutcome | null {
    if (delivery.status !== 'PENDING') return { kind: 'skipped', reason: `the delivery is ${delivery.status}` };
    // The schedule is the database's: a job never makes an attempt come sooner than it says.
    if (delivery.nextAttemptAt !== null && delivery.nextAttemptAt.getTime() > Date.now() + EARLY_TOLERANCE_MS) {
      return { kind: 'wait', until: delivery.nextAttemptAt };
    }
    return null;
  }

  /**
   * One attempt at a delivery that is due (withoutAttempt said so). A delivery this row cannot
   * make (its endpoint disabled, its body or secret unusable) is a failed attempt with the reason,
   * like any other (docs/design-record.md#d24); only an unexpected error (the database away) is
   * thrown, with nothing recorded.
   */
  async attempt(delivery: DeliveryToSend): Promise<DeliveryOutcome> {
    const attemptedAt = this.clock.now();
    if (!delivery.endpoint.enabled) {
      return this.failUnsent(
        delivery,
        attemptedAt,
        unsent(`not sent: the endpoint is disabled (${delivery.endpoint.disabledReason ?? 'by the business'})`, NOT_SENT.endpointDisabled),
      );
    }
    let body: string;
    try {
      // Shaped for the version the endpoint is pinned to, and signed as sent (docs/design-record.md#d22).
      body = noticeAsSent(this.shaper, delivery.payload, delivery.sandbox ? 'test' : 'live', delivery.endpoint.apiVersion);
    } catch (error) {
      return this.failUnsent(delivery, attemptedAt, unsent(`not sent: ${(error as Error).message}`, NOT_SENT.bodyUnusable));
    }
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    let signature: string;
    try {
      signature = signNotice({ id: delivery.noticeId, timestamp, body, secrets: this.signingSecrets(delivery, attemptedAt) });
    } catch (error) {
      this.logger.warn(`Notice ${delivery.noticeId} to endpoint ${delivery.endpointId} was not signed: ${(error as Error).message}`);
      // On the retry schedule: a SECRETS_KEY put right, or a rotation, lets a later attempt through.
      return this.database.transactional(() =>
        this.settleFailure(delivery, { attemptedAt, result: unsent(SECRET_UNUSABLE, NOT_SENT.secretUnusable) }),
      );
    }
    const result = await this.sender.send({
      tenantId: delivery.liveBusinessId,
      url: delivery.endpoint.url,
      id: delivery.noticeId,
      timestamp,
      body,
      signature,
    });
    if (result.delivered && result.statusCode !== null) {
      // The common case, in one statement shared with the other successes of the moment.
      await this.batches.recordDelivered({
        delivery,
        attempt: this.attemptRow(delivery, { attemptedAt, result, body }),
        deliveredAt: new Date(),
      });
      return { kind: 'delivered', statusCode: result.statusCode };
    }
    return this.database.transactional(() => this.settleFailure(delivery, { attemptedAt, result, body }));
  }

  /** Records a failed attempt and what follows it: a retry, or the end (FAILED, the endpoint maybe disabled). */
  private async settleFailure(delivery: DeliveryToSend, attempt: AttemptRecord): Promise<DeliveryOutcome> {
    const { businessId, endpointId } = delivery;
    const { attemptedAt, result } = attempt;
    if (!(await this.deliveries.insertAttempt(this.attemptRow(delivery, attempt)))) return DELIVERY_GONE;

    const error = result.error ?? `HTTP ${result.statusCode ?? 'no answer'}`;
    const failingSince = (await this.endpoints.markFailing(businessId, endpointId, attemptedAt)) ?? attemptedAt;
    const disableReason = reasonToDisable(result, failingSince, attemptedAt);
    const delayMs =
      disableReason === null
        ? nextRetryDelayMs({
            schedule: this.config.WEBHOOK_RETRY_SCHEDULE,
            attemptsMade: delivery.attempts + 1,
            retryAfterMs: result.retryAfterMs,
          })
        : null;

    if (delayMs === null) {
      await this.deliveries.settle(businessId, delivery.id, { status: 'FAILED', nextAttemptAt: null, deliveredAt: null });
      if (disableReason !== null) {
        await this.endpoints.disable(businessId, endpointId, disableReason);
        await this.deliveries.failPendingOfEndpoint(businessId, endpointId);
      }
      return { kind: 'failed', error: disableReason === null ? error : `${error}; ${disableReason}: endpoint disabled` };
    }
    const retryAt = new Date(Date.now() + delayMs);
    await this.deliveries.settle(businessId, delivery.id, { status: 'PENDING', nextAttemptAt: retryAt, deliveredAt: null });
    return { kind: 'retry', retryAt, error };
  }

  /** A delivery that cannot be sent at all: recorded as an attempt that never left, and FAILED at once. */
  private failUnsent(delivery: DeliveryToSend, attemptedAt: Date, result: SendResult): Promise<DeliveryOutcome> {
    const error = result.error ?? 'not sent';
    return this.database.transactional(async () => {
      if (!(await this.deliveries.insertAttempt(this.attemptRow(delivery, { attemptedAt, result })))) return DELIVERY_GONE;
      await this.deliveries.settle(delivery.businessId, delivery.id, { status: 'FAILED', nextAttemptAt: null, deliveredAt: null });
      return { kind: 'failed', error };
    });
  }

  /**
   * The secrets to sign with now, opened. The current one must open. A previous one that does not
   * is left out: a rotation moved an unusable secret aside, and the receiver has the new one, so
   * rotating is how a business gets past a secret the service cannot open.
   */
  private signingSecrets(delivery: DeliveryToSend, now: Date): string[] {
    const { endpoint, endpointId } = delivery;
    const [current, ...previous] = activeSecrets(
      {
        secret: endpoint.sealedSecret,
        previousSecret: endpoint.sealedPreviousSecret,
        previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
      },
      now,
    );
    const secrets = [this.cipher.openKept(current, endpointId)];
    for (const sealed of previous) {
      try {
        secrets.push(this.cipher.openKept(sealed, endpointId));
      } catch (error) {
        this.logger.warn(
          `Endpoint ${endpointId}: its previous secret cannot be opened, so it is not signed with (${(error as Error).message})`,
        );
      }
    }
    return secrets;
  }

  private attemptRow(delivery: DeliveryToSend, { attemptedAt, result, body }: AttemptRecord): NewAttempt {
    // What was sent is kept only when something was (docs/design-record.md#d29); the body itself is
    // rebuilt from the notice and this version, and shown when its digest matches.
    const sent = result.requestHeaders !== null && body !== undefined;
    return {
      id: newId(),
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attempt: delivery.attempts + 1,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      requestUrl: sent ? delivery.endpoint.url : null,
      requestHeaders: sent ? result.requestHeaders : null,
      apiVersion: sent ? delivery.endpoint.apiVersion : null,
      requestBodySha256: sent ? bodyDigest(body) : null,
      requestBody: null,
      responseExcerpt: result.responseExcerpt,
      failure: result.failureCode,
    };
  }
}
