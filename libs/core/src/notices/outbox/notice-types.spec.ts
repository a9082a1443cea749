import { ServedContract } from '#contract/served-contract.js';
import { checkSubscribedTypes, isServedNoticeType, CORE_NOTICE_TYPES } from './notice-types.js';

// An application that serves one extension, as one whose EXTENSIONS names it does.
const served = new ServedContract([
  { name: 'things', contract: { document: 'extensions/things/openapi.yaml', operations: {}, noticeTypes: ['thing.made'] } },
]);
const types = served.noticeTypes;

describe('checkSubscribedTypes', () => {
  it('accepts known event types, each once', () => {
    expect(checkSubscribedTypes(['appointment.created', 'sale.created'], types)).toBeNull();
  });

  // The known ones: the core's, then the enabled extensions'.
  it('refuses an empty list, unknown types (listing the known ones) and repeats', () => {
    expect(checkSubscribedTypes([], types)).toBe('must hold at least one event type');
    expect(checkSubscribedTypes(['appointment.created', 'appointment.booked'], types)).toMatch(
      /^has unknown event types: appointment\.booked \(known: appointment\.created, .*sale\.created(, [a-z]+\.[a-z]+)*\)$/,
    );
    expect(checkSubscribedTypes(['client.created', 'client.created'], types)).toBe('must not repeat an event type');
  });

  it("accepts an enabled extension's notice types after the core's, and only where it is served", () => {
    expect(types).toEqual([...CORE_NOTICE_TYPES, 'thing.made']);
    expect(checkSubscribedTypes(['client.created', 'thing.made'], types)).toBeNull();
    expect(isServedNoticeType('thing.made', types)).toBe(true);
    // Another application in the same process, serving no extension, does not accept it.
    expect(isServedNoticeType('thing.made', new ServedContract().noticeTypes)).toBe(false);
  });
});
