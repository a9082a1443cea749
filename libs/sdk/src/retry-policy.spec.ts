import { DEFAULT_RETRY_POLICY, backoffDelay, isReplaySafe, parseRetryAfter, retryDelay, type RetryPolicy } from './retry-policy.js';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 4_000 };

describe('backoffDelay', () => {
  it('doubles the cap per retry and keeps the jittered wait within [cap / 2, cap]', () => {
    const caps = [500, 1_000, 2_000, 4_000, 4_000];
    caps.forEach((cap, index) => {
      const retry = index + 1;
      expect(backoffDelay(retry, policy, () => 0)).toBe(cap / 2);
      expect(backoffDelay(retry, policy, () => 0.999999)).toBe(cap);
      for (const r of [0.1, 0.37, 0.5, 0.83]) {
        const delay = backoffDelay(retry, policy, () => r);
        expect(delay).toBeGreaterThanOrEqual(cap / 2);
        expect(delay).toBeLessThanOrEqual(cap);
      }
    });
  });

  it('never leaves the bounds even with a random source outside [0, 1)', () => {
    expect(backoffDelay(1, policy, () => -3)).toBe(250);
    expect(backoffDelay(1, policy, () => 7)).toBe(500);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP dates as milliseconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('retryDelay', () => {
  const r = (): number => 0.5;
  const response = (status: number, retryAfterMs: number | null = null) => ({ kind: 'response' as const, status, retryAfterMs });

  it('waits Retry-After on 429 whatever the request, else backs off', () => {
    expect(retryDelay(0, response(429, 42_000), false, policy, r)).toBe(42_000);
    expect(retryDelay(0, response(429), false, policy, r)).toBe(backoffDelay(1, policy, r));
  });

  it('retries lost answers and 5xx only for replay-safe requests', () => {
    expect(retryDelay(0, { kind: 'network-error' }, true, policy, r)).toBe(backoffDelay(1, policy, r));
    expect(retryDelay(1, response(503), true, policy, r)).toBe(backoffDelay(2, policy, r));
    expect(retryDelay(0, response(503, 2_000), true, policy, r)).toBe(2_000);
    expect(retryDelay(0, { kind: 'network-error' }, false, policy, r)).toBeNull();
    expect(retryDelay(0, response(500), false, policy, r)).toBeNull();
  });

  it('waits out IDEMPOTENCY_IN_PROGRESS (409 with Retry-After) for a keyed write, and no other 4xx', () => {
    expect(retryDelay(0, response(409, 1_000), true, policy, r)).toBe(1_000);
    expect(retryDelay(0, response(409), true, policy, r)).toBeNull();
    for (const status of [200, 201, 400, 401, 402, 403, 404, 413, 415]) expect(retryDelay(0, response(status), true, policy, r)).toBeNull();
  });

  it('stops after maxRetries', () => {
    expect(retryDelay(2, response(429, 1_000), true, policy, r)).toBe(1_000);
    expect(retryDelay(3, response(429, 1_000), true, policy, r)).toBeNull();
    expect(retryDelay(0, response(429, 1_000), true, { ...policy, maxRetries: 0 }, r)).toBeNull();
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(3);
  });
});

describe('isReplaySafe', () => {
  it('is true for reads and for writes with an Idempotency-Key', () => {
    expect(isReplaySafe('GET', false)).toBe(true);
    expect(isReplaySafe('head', false)).toBe(true);
    expect(isReplaySafe('POST', true)).toBe(true);
    expect(isReplaySafe('POST', false)).toBe(false);
    expect(isReplaySafe('PATCH', false)).toBe(false);
    expect(isReplaySafe('DELETE', false)).toBe(false);
  });
});
