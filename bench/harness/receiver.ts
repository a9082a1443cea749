import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Milliseconds since the epoch, to the microsecond: comparable across processes of this machine. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

interface Expectation {
  pending: Set<string>;
  done: (lastArrival: number) => void;
}

/**
 * The loopback webhook receiver of S6 (plain http on 127.0.0.1, in the load generator's process):
 * answers 200 at once and notes when each notice id arrived.
 */
export class Receiver {
  /** Arrival time of each webhook-id (the last one, if it came twice). */
  readonly arrivals = new Map<string, number>();
  /** The latest request, kept so its signature can be checked. */
  last: { headers: IncomingHttpHeaders; body: string } | null = null;
  private expectation: Expectation | null = null;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.arrived(req.headers, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves with the arrival time of the last of `ids`, once all have arrived. */
  expect(ids: readonly string[], timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.expectation = null;
        reject(new Error(`The receiver got ${ids.length - pending.size} of ${ids.length} notices within ${timeoutMs} ms`));
      }, timeoutMs);
      const pending = new Set(ids);
      this.expectation = {
        pending,
        done: (lastArrival) => {
          clearTimeout(timer);
          this.expectation = null;
          resolve(lastArrival);
        },
      };
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  private arrived(headers: IncomingHttpHeaders, body: string): void {
    const at = preciseNow();
    const id = String(headers['webhook-id']);
    this.arrivals.set(id, at);
    this.last = { headers, body };
    const expectation = this.expectation;
    if (expectation && expectation.pending.delete(id) && expectation.pending.size === 0) expectation.done(at);
  }
}
