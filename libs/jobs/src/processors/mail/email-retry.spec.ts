import { EMAIL_ATTEMPTS, EMAIL_RETRY_DELAYS_MS, emailRetryDelayMs } from './email-retry.js';

describe('e-mail retry schedule', () => {
  it('waits 2 s, 15 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h: nine attempts over about ten hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(emailRetryDelayMs)).toEqual([
      2_000, 15_000, 60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000,
    ]);
    expect(EMAIL_ATTEMPTS).toBe(9);
    expect(EMAIL_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0)).toBe(37_277_000);
  });

  it('stays on the last delay past the schedule and on the first before it', () => {
    expect(emailRetryDelayMs(20)).toBe(21_600_000);
    expect(emailRetryDelayMs(0)).toBe(2_000);
  });
});
