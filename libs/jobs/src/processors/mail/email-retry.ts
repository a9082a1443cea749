/**
 * Delays before each retry of an e-mail the SMTP server did not take: quick at first (a dropped
 * connection), then spread over about ten hours, so a mail server outage of an evening is covered.
 */
export const EMAIL_RETRY_DELAYS_MS: readonly number[] = [
  2_000,
  15_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  3 * 3_600_000,
  6 * 3_600_000,
];

/** The immediate attempt and one per delay. */
export const EMAIL_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;

/** The delay before the next attempt after `attemptsMade` failed ones (counted from 1). */
export function emailRetryDelayMs(attemptsMade: number): number {
  const index = Math.min(Math.max(attemptsMade, 1), EMAIL_RETRY_DELAYS_MS.length) - 1;
  return EMAIL_RETRY_DELAYS_MS[index];
}
