/**
 * A Retry-After header value (RFC 9110: delay-seconds or an HTTP date) in milliseconds from now,
 * or null when absent or unreadable. A date in the past is a wait of 0.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // Only the HTTP date forms; Date.parse alone would also take "1" or "2030" as dates.
  if (!/^[A-Za-z]{3},? /.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
