/**
 * The contract's rule for text a reader is shown as it was typed (the Metadata schema's values,
 * docs/design-record.md#d23): no control, bidirectional or zero-width characters, which would show
 * a reader other text than is stored. The pattern is the document's own, character for character
 * (visible-text.spec.ts holds them equal), so a service applying it applies the operation's rule,
 * not a copy of it.
 */
export const VISIBLE_TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060\\u2066-\\u2069\\uFEFF]*$';

/** What a refusal of VISIBLE_TEXT_PATTERN says, in the API's answers and the services' alike. */
export const VISIBLE_TEXT_MESSAGE =
  'must not contain control, bidirectional or zero-width characters (U+0000–U+001F, U+007F–U+009F, U+061C, U+200B–U+200F, U+202A–U+202E, U+2060, U+2066–U+2069, U+FEFF)';

const VISIBLE_TEXT = new RegExp(VISIBLE_TEXT_PATTERN, 'u');

/** VISIBLE_TEXT_MESSAGE when the text breaks the rule, else undefined. */
export function visibleTextProblem(text: string): string | undefined {
  return VISIBLE_TEXT.test(text) ? undefined : VISIBLE_TEXT_MESSAGE;
}
