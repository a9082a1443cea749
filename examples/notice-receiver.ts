/**
 * A receiver of the service's change notices: verifies each one with the partner SDK's
 * `verifyNotice` (Standard Webhooks, over the raw body as the signing demands; both secrets during a
 * rotation), answers at once, and handles each notice id once, since delivery is at least once and
 * in no guaranteed order. In your own project import from '@scheduling/sdk' (README, "The partner
 * SDK") instead of '#sdk/index.js'.
 *
 * Try it: register http://127.0.0.1:4000/notices with `npm run admin -- webhook create ...`
 * (plain http on loopback needs WEBHOOKS_ALLOW_PRIVATE=true, which `npm start` sets), then
 *
 *   NOTICE_SECRET=whsec_... PORT=4000 npm run example:receiver
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { NoticeVerificationError, verifyNotice, type SchedulingNotice } from '#sdk/index.js';

/** A change notice, or an endpoint's test ping (`webhook.test`). */
export type Notice = SchedulingNotice;

/** Notice bodies are small; anything longer is not one of ours. */
const MAX_BODY_BYTES = 64 * 1024;

export interface NoticeReceiverOptions {
  /**
   * The endpoint's secret (`whsec_…`), shown by `admin webhook create` or the API's create and
   * rotate-secret; during the 24 hours after a rotation, give the new and the old one.
   */
  secret: string | string[];
  /**
   * Handles a verified notice. Keep it short (the service waits 15 s at most): store the notice
   * and fetch what changed later, with a key. A rejection answers 500, so the service retries.
   */
  onNotice: (notice: Notice) => Promise<void> | void;
  /** Ids already handled. In memory here; a real receiver keeps them where it keeps its data. */
  handled?: Set<string>;
}

/** An HTTP server that accepts POSTed notices on any path. */
export function createNoticeReceiver(options: NoticeReceiverOptions): Server {
  return createServer(noticeRequestHandler(options));
}

/** The same as a request handler, to mount in a server of your own (node:http, Express, ...) before any body parser. */
export function noticeRequestHandler({ secret, onNotice, handled = new Set<string>() }: NoticeReceiverOptions): RequestListener {
  async function answer(req: IncomingMessage): Promise<number> {
    if (req.method !== 'POST') return 405;
    const body = await readBody(req);
    if (body === null) return 413;
    let notice: Notice;
    try {
      // Verifies the signature with each secret given and that the timestamp is within 5
      // minutes, then parses the body.
      notice = verifyNotice(body, req.headers, secret);
    } catch (error) {
      if (error instanceof NoticeVerificationError) return 400;
      throw error;
    }
    if (handled.has(notice.id)) return 204;
    await onNotice(notice);
    handled.add(notice.id);
    return 204;
  }

  return (req, res) => {
    answer(req).then(
      (status) => res.writeHead(status).end(),
      () => res.writeHead(500).end(),
    );
  };
}

/** The raw body as text, exactly as signed; null when it is too long. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // NOTICE_SECRET=whsec_new,whsec_old during a rotation.
  const secret = process.env.NOTICE_SECRET?.split(',').filter(Boolean);
  if (!secret?.length) throw new Error('Set NOTICE_SECRET to the endpoint secret (whsec_…)');
  const port = Number(process.env.PORT ?? 4000);
  createNoticeReceiver({
    secret,
    onNotice: (notice) => {
      console.log(`${notice.createdAt} ${notice.type} ${notice.data.id} (${notice.business})`);
    },
  }).listen(port, () => console.log(`Receiving notices on http://127.0.0.1:${port}/`));
}
