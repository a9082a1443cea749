import { hash } from 'node:crypto';

/**
 * Express's default ETag ("weak": W/"<length in hex>-<first 27 characters of the body's SHA-1 in
 * base64>"), the same value for the same body, through the one-shot `crypto.hash` instead of a
 * Hash object per response. weak-etag.spec.ts holds it to Express's own.
 */
export function weakEtag(body: Buffer | string, encoding?: BufferEncoding): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, encoding) : body;
  if (bytes.length === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${bytes.length.toString(16)}-${hash('sha1', bytes, 'base64').substring(0, 27)}"`;
}
