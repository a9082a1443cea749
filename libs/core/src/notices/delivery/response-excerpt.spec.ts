import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from './response-excerpt.js';

describe('responseExcerpt', () => {
  it('keeps the first 1 KB of a longer answer', () => {
    const excerpt = responseExcerpt(Buffer.from('a'.repeat(5 * 1024)));
    expect(excerpt).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES));
  });

  it('keeps a short answer whole, and none of an empty one', () => {
    expect(responseExcerpt(Buffer.from('{"ok":true}'))).toBe('{"ok":true}');
    expect(responseExcerpt(Buffer.alloc(0))).toBeNull();
  });

  it('drops a character the cut splits instead of showing half of it', () => {
    // 1023 ASCII bytes, then "é" (2 bytes): the cut at 1024 falls inside it.
    const excerpt = responseExcerpt(Buffer.from(`${'a'.repeat(1023)}é and more`));
    expect(excerpt).toBe('a'.repeat(1023));
    expect(Buffer.byteLength(excerpt!)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
  });

  it('decodes leniently: an invalid byte and NUL become U+FFFD', () => {
    expect(responseExcerpt(Buffer.from([0x6f, 0x6b, 0xff, 0x00, 0x21]))).toBe('ok\uFFFD\uFFFD!');
  });
});
