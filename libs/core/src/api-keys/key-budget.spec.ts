import { CONSOLE_KEYS_PER_HOUR, consoleKeyRateRefusal, keyLimitRefusal, MAX_ACTIVE_KEYS_PER_MODE } from './key-budget.js';

describe('keyLimitRefusal (docs/design-record.md#d28)', () => {
  it('lets a business make keys up to 10 per mode', () => {
    expect(MAX_ACTIVE_KEYS_PER_MODE).toBe(10);
    for (let active = 0; active < 10; active += 1) expect(keyLimitRefusal('salon', 'live', active)).toBeNull();
  });

  it('refuses the eleventh, and any more for a business over the limit, naming the limit', () => {
    for (const active of [10, 11, 40]) {
      const refusal = keyLimitRefusal('salon', 'test', active);
      expect(refusal?.code).toBe('KEY_LIMIT');
      expect(refusal?.detail).toBe(
        `salon has ${active} active test keys; a business holds at most 10 per mode (live, test). Revoke one to make another.`,
      );
    }
  });
});

describe('consoleKeyRateRefusal', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('lets the console make 20 keys an hour', () => {
    expect(CONSOLE_KEYS_PER_HOUR).toBe(20);
    expect(consoleKeyRateRefusal({ n: 19, oldest: now }, now)).toBeNull();
  });

  it('refuses the 21st until the oldest of the hour leaves the window', () => {
    const refusal = consoleKeyRateRefusal({ n: 20, oldest: new Date('2026-11-28T11:15:30Z') }, now);
    expect(refusal).toMatchObject({ code: 'API_RATE_LIMIT', retryAfterSeconds: 15 * 60 + 30 });
    expect(refusal?.detail).toBe(
      'The console makes at most 20 keys per business an hour, and has made 20 in the last hour. Try again in 16 minutes.',
    );
  });
});
