/** Each delay of the schedule is stretched or shrunk by up to this fraction, so retries spread out. */
export const RETRY_JITTER = 0.2;

/** The longest Retry-After a receiver can ask for (docs/design-record.md#d9). */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RetryInput {
  /** Delays before each retry, after the immediate first attempt (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
  /** Attempts made so far, the one that just failed included (1 after the first). */
  attemptsMade: number;
  /** What the receiver's Retry-After asked for, in milliseconds; only given on 429 and 503. */
  retryAfterMs?: number | null;
  /** A number in [0, 1); Math.random in production, fixed in tests. */
  random?: () => number;
}

/** How many attempts a schedule allows: the immediate one and one per delay. */
export function maxAttempts(schedule: readonly number[]): number {
  return schedule.length + 1;
}

/**
 * The Standard Webhooks retry schedule (docs/design-record.md#d9): the delay before the next attempt after
 * `attemptsMade` failed ones, with ±20% jitter, or null when the schedule is used up. A receiver's
 * Retry-After is honoured, up to 24 h, by never retrying sooner than it asked.
 */
export function nextRetryDelayMs(input: RetryInput): number | null {
  const { schedule, attemptsMade } = input;
  if (attemptsMade < 1 || attemptsMade >= maxAttempts(schedule)) return null;
  const random = input.random ?? Math.random;
  const base = schedule[attemptsMade - 1];
  const jittered = Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
  const asked = input.retryAfterMs == null ? 0 : Math.min(Math.max(input.retryAfterMs, 0), MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}
