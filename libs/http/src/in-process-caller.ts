import type { IncomingMessage } from 'node:http';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';

/**
 * The remote MCP server calls the REST API in process, for a caller it has already authenticated
 * (docs/design-record.md#d30). The caller rides on the request object under a symbol, which no
 * bytes from the network can set, so the API's guards take it as they would take a key.
 */
const IN_PROCESS_CALLER = Symbol('in-process caller');

type WithCaller = IncomingMessage & { [IN_PROCESS_CALLER]?: ApiKeyLookup };

export function attachInProcessCaller(req: IncomingMessage, caller: ApiKeyLookup): void {
  (req as WithCaller)[IN_PROCESS_CALLER] = caller;
}

export function inProcessCallerOf(req: IncomingMessage): ApiKeyLookup | undefined {
  return (req as WithCaller)[IN_PROCESS_CALLER];
}
