import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import type { IServerAdapter } from '@bull-board/api/typings/app';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiRequest } from '#http/api-request.js';

/** Outside /v1/api: the operators' side, not the partners'. */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const CHALLENGE = 'Basic realm="queue dashboard", charset="UTF-8", Bearer realm="queue dashboard"';

/**
 * The operators' queue dashboard (bull-board) over the worker's queues, behind
 * QUEUE_DASHBOARD_TOKEN: the middleware to mount at QUEUE_DASHBOARD_PATH. Every request, its
 * pages, scripts and API calls alike, needs the token. It only shows, unless `writable`
 * (QUEUE_DASHBOARD_WRITE=true): retrying, promoting, pausing and removing jobs change what
 * partners receive, so a leaked token alone must not allow them.
 */
export function queueDashboard(queues: readonly Queue[], token: string, writable: boolean): RequestHandler[] {
  const board = new ExpressAdapter();
  board.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !writable })),
    // @bull-board/express 9.10.1 declares its types against its own copy of @bull-board/api
    // (9.10.1), whose classes TypeScript tells apart from the installed 9.10.2 ones by their
    // private members; the two agree on the interface used at run time.
    serverAdapter: board as unknown as IServerAdapter,
    options: { uiConfig: { boardTitle: 'Scheduling queues' } },
  });
  // bull-board types its router as `any`; it is an Express application, i.e. a request handler.
  const router = board.getRouter() as RequestHandler;
  return writable ? [requireToken(token), router] : [requireToken(token), refuseChanges, router];
}

/** A read-only board answers only GET and HEAD: its actions are refused here, not only hidden by its page. */
function refuseChanges(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    next();
    return;
  }
  res
    .status(405)
    .set('Allow', 'GET, HEAD')
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: 'about:blank',
        title: 'Method Not Allowed',
        status: 405,
        detail: 'The queue dashboard is read-only; set QUEUE_DASHBOARD_WRITE=true to act on jobs from it.',
        requestId: (req as ApiRequest).requestId,
      }),
    );
}

/**
 * Lets a request through when it carries the token, as `Authorization: Bearer <token>` (scripts,
 * a proxy) or as the password of HTTP Basic (a browser: it asks once, then sends it with every
 * request of the page, which a bearer token cannot make it do). The comparison is over SHA-256
 * digests, so it takes the same time whatever the input and reveals nothing about the length.
 */
export function requireToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = presentedToken(req.headers.authorization);
    if (given !== null && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    res
      .status(401)
      .set('WWW-Authenticate', CHALLENGE)
      .type('application/problem+json')
      .send(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          detail: 'The queue dashboard needs the operators’ token (QUEUE_DASHBOARD_TOKEN).',
          requestId: (req as ApiRequest).requestId,
        }),
      );
  };
}

function presentedToken(header: string | undefined): string | null {
  const match = /^(\w+) +(\S+) *$/.exec(header ?? '');
  if (!match) return null;
  const [, scheme, value] = match;
  switch (scheme.toLowerCase()) {
    case 'bearer':
      return value;
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon === -1 ? null : decoded.slice(colon + 1);
    }
    default:
      return null;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
