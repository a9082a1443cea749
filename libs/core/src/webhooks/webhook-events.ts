import { NOTICE_TYPES, type NoticeType } from '#contract/generated/operations.js';

/** The change notices an endpoint can subscribe to: the contract's notice types (D9). */
export const WEBHOOK_EVENT_TYPES = NOTICE_TYPES;
export type WebhookEventType = NoticeType;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Why an endpoint cannot subscribe to these event types, or null when it can. */
export function checkWebhookEvents(events: readonly string[]): string | null {
  if (events.length === 0) return 'must hold at least one event type';
  const unknown = events.filter((event) => !isWebhookEventType(event));
  if (unknown.length > 0) return `has unknown event types: ${unknown.join(', ')} (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`;
  if (new Set(events).size !== events.length) return 'must not repeat an event type';
  return null;
}
