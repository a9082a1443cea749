import { DateTime } from 'luxon';

export interface LocalDateTime {
  /** The local date in words, e.g. "terça-feira, 7 de julho de 2026". */
  date: string;
  /** The local wall-clock time, e.g. "10:30" or "5:30 AM". */
  time: string;
}

/** An instant as the business's clients read it: in its time zone, in its language (docs/design-record.md#d10). */
export function localDateTime(instant: Date, timezone: string, locale: string): LocalDateTime {
  const local = DateTime.fromJSDate(instant, { zone: timezone }).setLocale(locale);
  return { date: local.toLocaleString(DateTime.DATE_HUGE), time: local.toLocaleString(DateTime.TIME_SIMPLE) };
}
