import { checkWebhookEvents } from './webhook-events.js';

describe('checkWebhookEvents', () => {
  it('accepts known event types, each once', () => {
    expect(checkWebhookEvents(['appointment.created', 'sale.created'])).toBeNull();
  });

  // The known ones: the core's, then the registered extensions' (extensions/index.ts).
  it('refuses an empty list, unknown types (listing the known ones) and repeats', () => {
    expect(checkWebhookEvents([])).toBe('must hold at least one event type');
    expect(checkWebhookEvents(['appointment.created', 'appointment.booked'])).toMatch(
      /^has unknown event types: appointment\.booked \(known: appointment\.created, .*sale\.created(, [a-z]+\.[a-z]+)*\)$/,
    );
    expect(checkWebhookEvents(['client.created', 'client.created'])).toBe('must not repeat an event type');
  });
});
