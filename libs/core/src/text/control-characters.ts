/**
 * What stored text may carry into a line-based format (.ics, e-mail headers and bodies). The API
 * refuses control characters since 1.3.0 (docs/design-record.md#hardening), but rows written
 * before, by fixtures or by the admin command line may still hold them, and a lone CR would end a
 * line of the invitation early and start a property of its own.
 */
// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F]+/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LF_AND_TAB = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** One line: every run of control characters (line breaks included) becomes one space. */
export function singleLine(text: string): string {
  return text.replace(ANY_CONTROL, ' ');
}

/** Lines separated by LF: CRLF and lone CR become LF, tabs stay, other control characters go. */
export function multiLine(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_LF_AND_TAB, '');
}
