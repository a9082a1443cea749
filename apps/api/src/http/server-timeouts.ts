import type { Server } from 'node:http';
import type { AppConfig } from '#config/app-config.js';

/**
 * How long a client may take to send its request (docs/design-record.md#d25): the headers within
 * HTTP_HEADERS_TIMEOUT_MS, the whole request within HTTP_REQUEST_TIMEOUT_MS; past either Node
 * answers 408 and closes the connection. Node only looks at its connections every
 * connectionsCheckingInterval (30 s by default, which would let a trickling client stay four times
 * longer than its 10 s), so it looks often enough for the shortest limit to hold. Set before the
 * server listens: it reads the interval when it starts listening.
 */
export function limitRequestTimes(server: Server, config: Pick<AppConfig, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS'>): void {
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  // An option of createServer that Node keeps on the server and reads on listening; @types/node
  // declares only the option (Nest creates the server without options).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    25,
    Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 10)),
  );
}
