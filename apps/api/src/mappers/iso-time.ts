/** UTC with milliseconds, as every date-time leaves the API (D5). */
export function isoTime(value: Date): string {
  return value.toISOString();
}
