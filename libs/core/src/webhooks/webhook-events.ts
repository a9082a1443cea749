import { NOTICE_TYPES, type NoticeType } from '#contract/generated/operations.js';
import { EXTENSIONS } from '#extensions/index.js';

/**
 * A notice type: the core contract's (docs/design-record.md#d9), or one a registered extension's contract declares,
 * named `<subject>.<event>` as the core's are.
 */
export type WebhookEventType = NoticeType | `${string}.${string}`;

function acceptedTypes(): readonly WebhookEventType[] {
  const types: WebhookEventType[] = [...NOTICE_TYPES];
  for (const extension of EXTENSIONS) {
    for (const type of extension.contract.noticeTypes) {
      if (types.includes(type as WebhookEventType)) throw new Error(`Extension ${extension.name}: notice type ${type} already exists`);
      types.push(type as WebhookEventType);
    }
  }
  return types;
}

/**
 * The change notices an endpoint can subscribe to, a fixture can name and the outbox accepts: the
 * core contract's notice types, then the registered extensions'. The one place that set is made.
 */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = acceptedTypes();

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
