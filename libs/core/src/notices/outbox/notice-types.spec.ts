import { serveExtensions } from '#contract/served-contract.js';
import { checkSubscribedTypes, isServedNoticeType, CORE_NOTICE_TYPES, subscribableNoticeTypes } from './notice-types.js';

// This process (this Jest file) serves one extension, as an app whose EXTENSIONS names it does.
beforeAll(() => {
  serveExtensions([
    { name: 'things', contract: { document: 'extensions/things/openapi.yaml', operations: {}, noticeTypes: ['thing.made'] } },
  ]);
});

describe('checkSubscribedTypes', () => {
  it('accepts known event types, each once', () => {
    expect(checkSubscribedTypes(['appointment.created', 'sale.created'])).toBeNull();
  });

  // The known ones: the core's, then the enabled extensions'.
  it('refuses an empty list, unknown types (listing the known ones) and repeats', () => {
    expect(checkSubscribedTypes([])).toBe('must hold at least one event type');
    expect(checkSubscribedTypes(['appointment.created', 'appointment.booked'])).toMatch(
      /^has unknown event types: appointment\.booked \(known: appointment\.created, .*sale\.created(, [a-z]+\.[a-z]+)*\)$/,
    );
    expect(checkSubscribedTypes(['client.created', 'client.created'])).toBe('must not repeat an event type');
  });

  it("accepts an enabled extension's notice types after the core's", () => {
    expect(subscribableNoticeTypes()).toEqual([...CORE_NOTICE_TYPES, 'thing.made']);
    expect(checkSubscribedTypes(['client.created', 'thing.made'])).toBeNull();
    expect(isServedNoticeType('thing.made')).toBe(true);
  });
});
