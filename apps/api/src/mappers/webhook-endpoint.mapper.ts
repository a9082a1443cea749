import type { EndpointAttempt } from '#core/notices/delivery/notice-deliveries.repository.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import type { Schemas } from '#contract/contract-types.js';
import { isoTime } from './iso-time.js';

type NoticeType = Schemas['NoticeType'];

/** An endpoint as the API shows it: never its secrets or its failure record. */
export function toWebhookEndpoint(endpoint: WebhookEndpointEntity): Schemas['WebhookEndpoint'] {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events as NoticeType[],
    description: endpoint.description,
    active: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    apiVersion: endpoint.apiVersion,
    createdAt: isoTime(endpoint.createdAt),
    updatedAt: isoTime(endpoint.updatedAt),
  };
}

/** The answer of create and rotate-secret, the only ones that carry the secret. */
export function toCreatedWebhookEndpoint(endpoint: WebhookEndpointEntity): Schemas['CreatedWebhookEndpoint'] {
  return { ...toWebhookEndpoint(endpoint), secret: endpoint.secret };
}

export function toWebhookDelivery(attempt: EndpointAttempt): Schemas['WebhookDelivery'] {
  const delivered = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode <= 299;
  return {
    id: attempt.id,
    eventId: attempt.eventId,
    eventType: attempt.eventType as Schemas['DeliveryEventType'],
    attempt: attempt.attempt,
    attemptedAt: isoTime(attempt.attemptedAt),
    outcome: delivered ? 'DELIVERED' : 'FAILED',
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
    nextAttemptAt: attempt.nextAttemptAt === null ? null : isoTime(attempt.nextAttemptAt),
    final: attempt.final,
  };
}
