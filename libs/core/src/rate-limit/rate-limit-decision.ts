import type { RateLimitDecision, RateLimitPolicy } from './rate-limit.types.js';

/** Rejects policies the sliding log cannot honour (a zero limit would make every reply a refusal with no reset). */
export function assertValidPolicy(policy: RateLimitPolicy): void {
  const { limit, windowSeconds } = policy;
  if (!Number.isSafeInteger(limit) || limit < 1 || !Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError(`Invalid rate-limit policy ${limit};w=${windowSeconds}: both must be positive integers`);
  }
}

/** Builds the decision both limiters return, so Redis and in-memory answers are indistinguishable to callers. */
export function toDecision(policy: RateLimitPolicy, allowed: boolean, remaining: number, msUntilOldestExpires: number): RateLimitDecision {
  const resetSeconds = Math.max(0, msUntilOldestExpires) / 1000;
  return {
    allowed,
    limit: policy.limit,
    remaining: Math.max(0, remaining),
    resetSeconds,
    retryAfterSeconds: allowed ? null : resetSeconds,
  };
}
