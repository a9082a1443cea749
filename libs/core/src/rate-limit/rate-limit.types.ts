/** How many requests one subject may make in a rolling window. */
export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

/** docs/design-record.md#d11: 120 requests per rolling 60 seconds per key. */
export const API_RATE_LIMIT_POLICY: Readonly<RateLimitPolicy> = Object.freeze({ limit: 120, windowSeconds: 60 });

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds (fractional) until the oldest counted request leaves the window, i.e. until
   * `remaining` next grows. For a sliding log this is the earliest useful moment to retry,
   * so it is also what `retryAfterSeconds` carries when the request is refused.
   */
  resetSeconds: number;
  /** Seconds (fractional) after which a refused request would be admitted; null when admitted. */
  retryAfterSeconds: number | null;
}

/** Anything with Nest's Logger#error shape; the limiter depends on nothing else. */
export interface RateLimitLogger {
  error(msg: string, ...rest: unknown[]): void;
}

/** Milliseconds from a monotonic source; injectable so tests can control time. */
export type Clock = () => number;
