import type { IncomingMessage } from 'node:http';

/**
 * How many times the client sent a header. Node keeps only the first of a repeated Authorization
 * and joins other repeats with ", ", so `req.headers` cannot tell; the raw list can.
 */
export function headerOccurrences(req: IncomingMessage, lowerCaseName: string): number {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    // The length first: most names differ in it, and lower-casing each name on every request costs a string.
    if (raw[i].length === lowerCaseName.length && raw[i].toLowerCase() === lowerCaseName) count++;
  }
  return count;
}
