import { loadContract } from './openapi-document.js';
import { VISIBLE_TEXT_MESSAGE, VISIBLE_TEXT_PATTERN, visibleTextProblem } from './visible-text.js';

describe('the visible-text rule', () => {
  it("is the contract's own pattern for a metadata value, character for character", () => {
    const schemas = (
      loadContract().document as unknown as { components: { schemas: Record<string, { additionalProperties: { pattern: string } }> } }
    ).components.schemas;
    expect(schemas.Metadata.additionalProperties.pattern).toBe(VISIBLE_TEXT_PATTERN);
  });

  it('accepts text of any script, emoji included', () => {
    for (const text of ['', 'Website', 'Agenda do salão', 'مرحبا', '日本語', 'Zapier ⚡ 📅']) {
      expect(visibleTextProblem(text)).toBeUndefined();
    }
  });

  it('refuses control, bidirectional and zero-width characters', () => {
    for (const hidden of [
      '\u0000',
      '\n',
      '\t',
      '\u007F',
      '\u0085',
      '\u061C',
      '\u200B',
      '\u200D',
      '\u200E',
      '\u202E',
      '\u2060',
      '\u2066',
      '\u2069',
      '\uFEFF',
    ]) {
      expect(visibleTextProblem(`a${hidden}b`)).toBe(VISIBLE_TEXT_MESSAGE);
    }
  });
});
