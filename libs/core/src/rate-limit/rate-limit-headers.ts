import type { RateLimitDecision, RateLimitPolicy } from './rate-limit.types.js';

export type RateLimitHeaders = Readonly<Record<string, string>>;

/**
 * Response headers for a decision (IETF RateLimit header fields, separate-field form).
 * `RateLimit-Reset` is, as the contract defines it, the seconds until the window has room again:
 * 0 while requests remain, else until the oldest counted request leaves the window. Seconds are
 * rounded up: rounding down would tell a client to come back before the slot frees.
 */
export function rateLimitHeaders(decision: RateLimitDecision, policy: RateLimitPolicy): RateLimitHeaders {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'RateLimit-Reset': String(decision.remaining > 0 ? 0 : Math.max(0, Math.ceil(decision.resetSeconds))),
    'RateLimit-Policy': `${policy.limit};w=${policy.windowSeconds}`,
  };
  if (!decision.allowed) {
    // Retry-After: 0 would invite an immediate retry that is certain to fail again.
    const retryAfter = decision.retryAfterSeconds ?? decision.resetSeconds;
    headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfter)));
  }
  return headers;
}
