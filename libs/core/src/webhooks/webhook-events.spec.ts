import { serveExtensions } from '#contract/served-contract.js';
import { checkWebhookEvents, isWebhookEventType, WEBHOOK_EVENT_TYPES, webhookEventTypes } from './webhook-events.js';

// This process (this Jest file) serves one extension, as an app whose EXTENSIONS names it does.
beforeAll(() => {
  serveExtensions([
    { name: 'things', contract: { document: 'extensions/things/openapi.yaml', operations: {}, noticeTypes: ['thing.made'] } },
  ]);
});

describe('checkWebhookEvents', () => {
  it('accepts known event types, each once', () => {
    expect(checkWebhookEvents(['appointment.created', 'sale.created'])).toBeNull();
  });

  // The known ones: the core's, then the enabled extensions'.
  it('refuses an empty list, unknown types (listing the known ones) and repeats', () => {
    expect(checkWebhookEvents([])).toBe('must hold at least one event type');
    expect(checkWebhookEvents(['appointment.created', 'appointment.booked'])).toMatch(
      /^has unknown event types: appointment\.booked \(known: appointment\.created, .*sale\.created(, [a-z]+\.[a-z]+)*\)$/,
    );
    expect(checkWebhookEvents(['client.created', 'client.created'])).toBe('must not repeat an event type');
  });

  it("accepts an enabled extension's notice types after the core's", () => {
    expect(webhookEventTypes()).toEqual([...WEBHOOK_EVENT_TYPES, 'thing.made']);
    expect(checkWebhookEvents(['client.created', 'thing.made'])).toBeNull();
    expect(isWebhookEventType('thing.made')).toBe(true);
  });
});
