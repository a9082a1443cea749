/** How much of an answer's body an attempt keeps (docs/design-record.md#d29): the first 1 KB. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The first RESPONSE_EXCERPT_BYTES of an answer as text: decoded as UTF-8 leniently (an invalid
 * byte becomes U+FFFD), a character the cut splits dropped rather than shown half, and NUL, which
 * PostgreSQL's text refuses, shown as U+FFFD too. Null when the answer had no body.
 */
export function responseExcerpt(body: Uint8Array): string | null {
  if (body.length === 0) return null;
  const cut = body.subarray(0, RESPONSE_EXCERPT_BYTES);
  // `stream: true` holds back a sequence left incomplete at the end (the cut's) instead of replacing it.
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(cut, { stream: true });
  return text.replaceAll('\u0000', '\uFFFD');
}
