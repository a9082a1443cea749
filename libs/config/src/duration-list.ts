const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d{1,9})(ms|s|m|h)?$/;

/** A duration such as 250ms, 5s, 30m or 2h (a bare number is milliseconds); null when malformed. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? 'ms') as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

/** A comma-separated list of durations, in milliseconds; null when any item is malformed or the list is empty. */
export function parseDurationList(text: string): number[] | null {
  const items = text.split(',').map(parseDuration);
  if (items.length === 0 || items.some((item) => item === null)) return null;
  return items as number[];
}
