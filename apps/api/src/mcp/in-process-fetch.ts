import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import inject from 'light-my-request';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';
import { attachInProcessCaller } from '#http/in-process-caller.js';

/**
 * A fetch that sends the SDK's requests into this process's own Express app, for a caller already
 * authenticated (docs/design-record.md#d30): each goes through the API's real guards, input checks,
 * rate limit, idempotency and answer shaping, as a request from the network would, without a
 * socket. The caller rides on the request (attachInProcessCaller); the SDK's Authorization header
 * (a placeholder key, never a credential) is dropped.
 */
export function inProcessFetch(app: RequestListener, caller: ApiKeyLookup): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== 'authorization' && name !== 'x-api-key') headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await inject(
      (req, res) => {
        keepInjectedMethods(req, res);
        attachInProcessCaller(req, caller);
        app(req, res);
      },
      {
        method: request.method,
        url: `${url.pathname}${url.search}`,
        headers,
        ...(body && body.length > 0 ? { payload: body } : {}),
        signal: request.signal,
      },
    );
    const answered = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answered.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: answered });
  };
}

/**
 * Express gives each request and response its own prototypes (app.request, app.response), which
 * drops the injected ones' write/end: without their methods on the objects themselves, an answer
 * would end with its status and headers but no body.
 */
function keepInjectedMethods(...objects: (IncomingMessage | ServerResponse)[]): void {
  for (const object of objects) {
    const prototype = Object.getPrototypeOf(object) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (name !== 'constructor' && typeof method === 'function')
        Object.defineProperty(object, name, { value: method, writable: true, configurable: true });
    }
  }
}
