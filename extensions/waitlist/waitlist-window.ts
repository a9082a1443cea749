/** The longest wait a client can ask for: past that, a free slot would not mean the same need. */
export const MAX_WAITLIST_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * Why the days a client could come (`from` to `to`, both included, `YYYY-MM-DD` as the contract
 * checked them) cannot be a waitlist entry, or null when they can.
 */
export function waitlistWindowProblem(from: string, to: string): string | null {
  const days = dayNumber(to) - dayNumber(from);
  if (days < 0) return 'to must not be before from';
  if (days > MAX_WAITLIST_DAYS) return `to must be at most ${MAX_WAITLIST_DAYS} days after from`;
  return null;
}
