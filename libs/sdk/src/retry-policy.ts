/**
 * When the SDK tries a request again, and after how long. Pure functions of the attempt, the answer
 * and a random number, so that the rules are tested without waiting (retry-policy.spec.ts).
 */

export interface RetryPolicy {
  /** Retries after the first attempt (0: never retry). */
  maxRetries: number;
  /** The first backoff's upper bound; each retry doubles it. */
  baseDelayMs: number;
  /** No backoff waits longer than this (a Retry-After the API sends is waited in full). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

/** What one attempt gave. */
export type AttemptOutcome = { kind: 'response'; status: number; retryAfterMs: number | null } | { kind: 'network-error' };

/**
 * The wait before retry number `retry` (1 for the first): exponential, with "equal jitter", i.e.
 * uniformly in [cap / 2, cap] where cap = min(maxDelayMs, baseDelayMs × 2^(retry − 1)). Half the
 * cap keeps retries apart; the random half keeps many clients from retrying in step.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(cap / 2 + r * (cap / 2));
}

/**
 * Retry-After as milliseconds to wait: delta-seconds ("7") or an HTTP date, measured from `now`
 * (ms since the epoch). Null when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Whether a request may be sent again when its answer is lost or is a server error: reads, and
 * writes that carry an Idempotency-Key (the API answers a repeat with the first answer and does
 * nothing again). Other writes could act twice.
 */
export function isReplaySafe(method: string, hasIdempotencyKey: boolean): boolean {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' || hasIdempotencyKey;
}

/**
 * The wait before trying again after `retriesSoFar` retries, or null to stop with this outcome.
 * - 429: the API refused without acting, so any request is retried, after Retry-After when given.
 * - 409 with Retry-After (IDEMPOTENCY_IN_PROGRESS: the same key is still running): after Retry-After,
 *   when the request is replay-safe.
 * - 502, 503, 504, 500 and lost answers (network errors): with backoff, when replay-safe; 503 with
 *   Retry-After waits that.
 */
export function retryDelay(
  retriesSoFar: number,
  outcome: AttemptOutcome,
  replaySafe: boolean,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (retriesSoFar >= policy.maxRetries) return null;
  const backoff = (): number => backoffDelay(retriesSoFar + 1, policy, random);
  if (outcome.kind === 'network-error') return replaySafe ? backoff() : null;
  const { status, retryAfterMs } = outcome;
  if (status === 429) return retryAfterMs ?? backoff();
  if (status === 409) return replaySafe && retryAfterMs !== null ? retryAfterMs : null;
  if (status >= 500 && status <= 599) return replaySafe ? (retryAfterMs ?? backoff()) : null;
  return null;
}
