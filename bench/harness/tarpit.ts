import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a tarpit counts of one kind of request: held now, held at most, received. */
export interface HeldCount {
  holding: number;
  mostHeld: number;
  received: number;
}

/**
 * A receiver that takes every request and never answers (S8, S9): it counts what it holds, in
 * all and, when given `kindOf`, per kind of request (told apart by the body, once it has come).
 */
export class Tarpit implements HeldCount {
  holding = 0;
  mostHeld = 0;
  received = 0;
  readonly kinds = new Map<string, HeldCount>();
  private readonly held = new Set<ServerResponse>();

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    private readonly kindOf?: (body: string) => string,
  ) {}

  static async start(kindOf?: (body: string) => string): Promise<Tarpit> {
    const server = createServer();
    const tarpit = new Tarpit(server, kindOf);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => tarpit.hold(req, res));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return tarpit;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/tarpit`;
  }

  /** Ends every held request (the senders see their connection close) and stops listening. */
  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  private hold(req: IncomingMessage, res: ServerResponse): void {
    this.received += 1;
    this.held.add(res);
    this.holding = this.held.size;
    this.mostHeld = Math.max(this.mostHeld, this.holding);
    let counted: HeldCount | undefined;
    // The senders give up after 15 s and close the request.
    res.on('close', () => {
      this.held.delete(res);
      this.holding = this.held.size;
      if (counted) counted.holding -= 1;
    });
    if (!this.kindOf) {
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!this.held.has(res)) return;
      const kind = this.kindOf!(Buffer.concat(chunks).toString('utf8'));
      counted = this.kinds.get(kind) ?? { holding: 0, mostHeld: 0, received: 0 };
      this.kinds.set(kind, counted);
      counted.received += 1;
      counted.holding += 1;
      counted.mostHeld = Math.max(counted.mostHeld, counted.holding);
    });
  }
}
