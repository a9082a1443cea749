/** The change notices an endpoint can subscribe to (the contract's NoticeType, D9). */
export const WEBHOOK_EVENT_TYPES = [
  'appointment.created',
  'appointment.confirmed',
  'appointment.cancelled',
  'appointment.rescheduled',
  'client.created',
  'payment.received',
  'sale.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
