import { rateLimitHeaders } from './rate-limit-headers.js';
import { API_RATE_LIMIT_POLICY, type RateLimitDecision } from './rate-limit.types.js';

describe('rateLimitHeaders', () => {
  const admitted: RateLimitDecision = {
    allowed: true,
    limit: 120,
    remaining: 119,
    resetSeconds: 59.001,
    retryAfterSeconds: null,
  };

  it('describes an admitted request without Retry-After; Reset is 0 while requests remain', () => {
    expect(rateLimitHeaders(admitted, API_RATE_LIMIT_POLICY)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '119',
      'RateLimit-Reset': '0',
      'RateLimit-Policy': '120;w=60',
    });
  });

  it('counts Reset down to room in the window once the last request was admitted', () => {
    const last: RateLimitDecision = { ...admitted, remaining: 0, resetSeconds: 41.2 };

    expect(rateLimitHeaders(last, API_RATE_LIMIT_POLICY)['RateLimit-Reset']).toBe('42');
  });

  it('adds Retry-After, rounded up, to a refusal', () => {
    const refused: RateLimitDecision = {
      ...admitted,
      allowed: false,
      remaining: 0,
      resetSeconds: 12.2,
      retryAfterSeconds: 12.2,
    };

    expect(rateLimitHeaders(refused, API_RATE_LIMIT_POLICY)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '13',
      'RateLimit-Policy': '120;w=60',
      'Retry-After': '13',
    });
  });

  it('never tells a refused client to retry after 0 seconds', () => {
    const refused: RateLimitDecision = {
      ...admitted,
      allowed: false,
      remaining: 0,
      resetSeconds: 0,
      retryAfterSeconds: 0,
    };

    expect(rateLimitHeaders(refused, API_RATE_LIMIT_POLICY)['Retry-After']).toBe('1');
  });

  it('falls back to resetSeconds when a refusal carries no retry delay', () => {
    const refused: RateLimitDecision = { ...admitted, allowed: false, remaining: 0, resetSeconds: 4.5 };

    expect(rateLimitHeaders(refused, API_RATE_LIMIT_POLICY)['Retry-After']).toBe('5');
  });

  it('never reports negative remaining or reset', () => {
    const headers = rateLimitHeaders({ ...admitted, remaining: -1, resetSeconds: -0.5 }, API_RATE_LIMIT_POLICY);

    expect(headers['RateLimit-Remaining']).toBe('0');
    expect(headers['RateLimit-Reset']).toBe('0');
  });

  it('derives the policy header from the policy', () => {
    expect(rateLimitHeaders(admitted, { limit: 5, windowSeconds: 2 })['RateLimit-Policy']).toBe('5;w=2');
  });
});
