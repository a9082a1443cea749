/** UTC with milliseconds, as every date-time leaves the API (docs/design-record.md#d5). */
export function isoTime(value: Date): string {
  return value.toISOString();
}
