import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One POST the receiver got, as it arrived. */
export interface ReceivedNotice {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  path: string;
}

/** How to answer: a status (with headers and body), hold the request open, or cut the connection. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'drop';
export type Respond = (notice: ReceivedNotice, index: number) => Reply;

export const answer200: Respond = () => ({ status: 200, body: 'ok' });

/**
 * A webhook receiver on 127.0.0.1 (plain http: tests run with WEBHOOKS_ALLOW_PRIVATE=true). It
 * records every request and answers as `respond` says; tests change `respond` as they go.
 */
export class NoticeReceiver {
  readonly received: ReceivedNotice[] = [];
  private readonly sockets = new Set<Socket>();
  /** Requests held open ('hang'), with what each brought. */
  private readonly hanging = new Map<ServerResponse, ReceivedNotice>();
  /** The most requests held open at once ('hang'), since the start. */
  mostHeld = 0;

  private constructor(
    private readonly server: Server,
    public respond: Respond,
  ) {}

  static async start(respond: Respond = answer200, port = 0): Promise<NoticeReceiver> {
    const server = createServer();
    const receiver = new NoticeReceiver(server, respond);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.handle(req.headers, req.url ?? '/', Buffer.concat(chunks).toString('utf8'), res));
    });
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests held open right now ('hang'). */
  get holding(): number {
    return this.hanging.size;
  }

  /** The requests held open right now ('hang'), in arrival order. */
  held(): ReceivedNotice[] {
    return [...this.hanging.values()];
  }

  /** Answers every request held open right now with `reply` (by default 200). */
  release(reply: { status: number; body?: string } = { status: 200, body: 'ok' }): void {
    for (const res of this.hanging.keys()) {
      res.writeHead(reply.status);
      res.end(reply.body ?? '');
    }
    this.hanging.clear();
  }

  /** The notices whose webhook-id is `id`, in arrival order. */
  withId(id: string): ReceivedNotice[] {
    return this.received.filter((notice) => notice.headers['webhook-id'] === id);
  }

  async waitFor(check: (received: ReceivedNotice[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.received)) {
      if (Date.now() > deadline) {
        throw new Error(`Receiver did not get what was expected within ${timeoutMs} ms; got ${this.received.length} requests`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging.keys()) res.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(headers: IncomingHttpHeaders, path: string, body: string, res: ServerResponse): void {
    const notice: ReceivedNotice = { headers, body, at: Date.now(), path };
    this.received.push(notice);
    const reply = this.respond(notice, this.received.length - 1);
    if (reply === 'hang') {
      this.hanging.set(res, notice);
      this.mostHeld = Math.max(this.mostHeld, this.hanging.size);
      // A sender that gives up (its time-out) closes the request: it is no longer held.
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (reply === 'drop') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? '');
  }
}

/** Verifies a received notice with the standardwebhooks library, as a receiver would; throws if it does not verify. */
export function verifyNotice(secret: string, notice: ReceivedNotice): unknown {
  return new Webhook(secret).verify(notice.body, {
    'webhook-id': String(notice.headers['webhook-id']),
    'webhook-timestamp': String(notice.headers['webhook-timestamp']),
    'webhook-signature': String(notice.headers['webhook-signature']),
  });
}

/** Polls until `check` returns something truthy; returns it. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
