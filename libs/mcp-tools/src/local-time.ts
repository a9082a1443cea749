/**
 * An instant as the business reads it, beside the UTC the API speaks: a person booking by chat
 * talks in the business's wall-clock time, and an agent that read only UTC would tell a client
 * the wrong hour (docs/design-record.md#d30).
 */
export function localTime(instant: string, timeZone: string): { date: string; time: string; offset: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  // longOffset writes "GMT+01:00", and "GMT" alone at offset zero.
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, offset };
}

/** "2030-01-07T09:00:00.000Z (10:00 +01:00 Europe/Lisbon, 2030-01-07)"; the UTC instant alone without a zone. */
export function instantWithLocal(instant: string, timeZone: string | null): string {
  if (!timeZone) return instant;
  const local = localTime(instant, timeZone);
  return `${instant} (${local.date} ${local.time} ${local.offset} ${timeZone})`;
}

/** "2030-01-07 10:00–10:30 +01:00 Europe/Lisbon (09:00:00.000Z–09:30:00.000Z UTC)". */
export function intervalWithLocal(start: string, end: string, timeZone: string | null): string {
  const utc = `${start}–${end}`;
  if (!timeZone) return `${utc} (UTC)`;
  const from = localTime(start, timeZone);
  const to = localTime(end, timeZone);
  const until = to.date === from.date ? to.time : `${to.date} ${to.time}`;
  return `${from.date} ${from.time}–${until} ${from.offset} ${timeZone} (UTC ${utc})`;
}
