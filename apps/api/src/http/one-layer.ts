import type { IncomingMessage, ServerResponse } from 'node:http';

type Next = (error?: unknown) => void;
/** Any Express-style middleware, whatever request type it declares (ApiRequest, Request, IncomingMessage). */
type Middleware = (req: never, res: never, next: Next) => unknown;

/**
 * Runs middlewares that every request passes through, in order, as one layer of Express's router
 * (docs/design-record.md#per-request-cost). Each layer of the router costs every request a path
 * match and a few closures whether it has anything to do or not; these apply to every path, so
 * they need no match. An error (thrown, or passed to `next`) skips the rest, as Express would.
 */
export function oneLayer(...handlers: Middleware[]): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  return (req, res, next) => {
    let index = 0;
    const step: Next = (error) => {
      if (error !== undefined || index === handlers.length) {
        next(error);
        return;
      }
      const handler = handlers[index++];
      try {
        handler(req as never, res as never, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
