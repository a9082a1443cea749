import { EN, type MessageKey } from './messages.en.js';
import { PT_PT } from './messages.pt-PT.js';
import { portugueseFieldMessage } from './field-messages.pt-PT.js';

/** The console's languages (docs/design-record.md#d29), each with its message catalogue. */
export const CONSOLE_LANGUAGES = ['en', 'pt-PT'] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number];

const CATALOGUES: Readonly<Record<ConsoleLanguage, Readonly<Record<MessageKey, string>>>> = { en: EN, 'pt-PT': PT_PT };

/** A supported language for a language tag (`pt`, `pt-BR`, `en-GB`…), or undefined. */
export function languageOfTag(tag: string | null | undefined): ConsoleLanguage | undefined {
  const primary = tag?.trim().toLowerCase().split('-')[0];
  if (primary === 'pt') return 'pt-PT';
  if (primary === 'en') return 'en';
  return undefined;
}

/**
 * The member's browser language when the console has it (Accept-Language, in the browser's order of
 * preference), else the business's locale, else English.
 */
export function chooseLanguage(acceptLanguage: string | undefined, businessLocale?: string | null): ConsoleLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, weight: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && Number.isFinite(weight) && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return languageOfTag(businessLocale) ?? 'en';
}

export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * Text in one language, and times in one zone: every string a page shows comes from here. A
 * message's `{name}` places are filled from its parameters.
 */
export class Translator {
  private readonly catalogue: Readonly<Record<MessageKey, string>>;
  private readonly times: Intl.DateTimeFormat;

  constructor(
    readonly language: ConsoleLanguage,
    /** The IANA zone the business's times are shown in. */
    readonly timeZone = 'UTC',
  ) {
    this.catalogue = CATALOGUES[language];
    // British English for English: day before month, 24-hour clock, as a salon in Europe reads it.
    this.times = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'shortOffset',
    });
  }

  t(key: MessageKey, params: MessageParams = {}): string {
    return this.catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  }

  /** An instant in the business's zone, with its offset ("28 Nov 2026, 17:45:03 GMT+1"). */
  time(instant: Date | string): string {
    return this.times.format(new Date(instant));
  }

  /** The same translator for another zone (a business's, once the page knows which). */
  inZone(timeZone: string): Translator {
    return timeZone === this.timeZone ? this : new Translator(this.language, timeZone);
  }

  /**
   * A rule's message about a field, as the API words it (English), in this language: the
   * contract's and the services' messages are the API's, and the console translates them rather
   * than keeping rules of its own.
   */
  fieldMessage(message: string): string {
    return this.language === 'pt-PT' ? portugueseFieldMessage(message) : message;
  }
}
