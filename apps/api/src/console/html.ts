/** Markup already escaped, or written by the console itself: inserted as it is. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`html: cannot render a ${typeof value}; render it to text first`);
}

/**
 * The console's one way to write markup: every value put into the template is escaped (text and
 * attribute values alike, quotes included), except SafeHtml, which is what another `html` made.
 * Arrays are rendered item by item; null, undefined and false render as nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0];
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1];
  });
  return new SafeHtml(markup);
}
