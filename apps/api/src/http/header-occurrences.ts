import type { IncomingMessage } from 'node:http';

/**
 * How many times the client sent a header. Node keeps only the first of a repeated Authorization
 * and joins other repeats with ", ", so `req.headers` cannot tell; the raw list can.
 */
export function headerOccurrences(req: IncomingMessage, lowerCaseName: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() === lowerCaseName) count++;
  }
  return count;
}
