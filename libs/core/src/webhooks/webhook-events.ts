import { NOTICE_TYPES, type NoticeType } from '#contract/generated/operations.js';

/** The change notices an endpoint can subscribe to: the contract's notice types (D9). */
export const WEBHOOK_EVENT_TYPES = NOTICE_TYPES;
export type WebhookEventType = NoticeType;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
