import { maxAttempts, nextRetryDelayMs } from './retry-schedule.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** The Standard Webhooks schedule after the immediate first attempt. */
const STANDARD = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR];
const middle = () => 0.5;

describe('nextRetryDelayMs', () => {
  it('follows the schedule, attempt after attempt, without jitter at the middle of the range', () => {
    const delays = Array.from({ length: 9 }, (_, i) => nextRetryDelayMs({ schedule: STANDARD, attemptsMade: i + 1, random: middle }));
    expect(delays).toEqual(STANDARD);
  });

  it('allows ten attempts in all with the standard schedule, then gives up', () => {
    expect(maxAttempts(STANDARD)).toBe(10);
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 10, random: middle })).toBeNull();
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 11, random: middle })).toBeNull();
  });

  it('stays within ±20% of the scheduled delay', () => {
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 2, random: () => 0 })).toBe(4 * MINUTE);
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 2, random: () => 0.999999 })).toBeCloseTo(6 * MINUTE, -2);
    for (let i = 0; i < 200; i += 1) {
      const delay = nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 4 })!;
      expect(delay).toBeGreaterThanOrEqual(0.8 * 2 * HOUR);
      expect(delay).toBeLessThanOrEqual(1.2 * 2 * HOUR);
    }
  });

  it('never retries sooner than a Retry-After asks, capped at 24 hours', () => {
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 1, retryAfterMs: 90 * SECOND, random: middle })).toBe(90 * SECOND);
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 2, retryAfterMs: 1 * SECOND, random: middle })).toBe(5 * MINUTE);
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 1, retryAfterMs: 72 * HOUR, random: middle })).toBe(24 * HOUR);
  });

  it('does not extend the schedule for a Retry-After after the last attempt', () => {
    expect(nextRetryDelayMs({ schedule: STANDARD, attemptsMade: 10, retryAfterMs: SECOND })).toBeNull();
  });

  it('works on a compressed schedule and refuses nonsense counts', () => {
    expect(nextRetryDelayMs({ schedule: [100, 200], attemptsMade: 2, random: middle })).toBe(200);
    expect(nextRetryDelayMs({ schedule: [100, 200], attemptsMade: 3, random: middle })).toBeNull();
    expect(nextRetryDelayMs({ schedule: [100, 200], attemptsMade: 0, random: middle })).toBeNull();
  });
});
