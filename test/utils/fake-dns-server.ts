import { createSocket, type Socket } from 'node:dgram';

const TYPE_A = 1;

/** The question of a DNS query: its name (lower case, no trailing dot) and type, at `end` the question's last byte. */
function question(message: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (message[offset] !== 0) {
    const length = message[offset];
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset + 1), end: offset + 5 };
}

/**
 * A DNS server on 127.0.0.1 (UDP) for tests of name resolution: names in `addresses` answer with
 * their IPv4 address (and no IPv6 one), names that `silent` picks get no answer until release(),
 * any other name does not exist.
 */
export class FakeDnsServer {
  /** The name of every query, in order of arrival. */
  readonly asked: string[] = [];
  private held: { message: Buffer; host: string; port: number }[] = [];
  private released = false;

  private constructor(
    private readonly socket: Socket,
    private readonly addresses: Record<string, string>,
    private readonly silent: (name: string) => boolean,
  ) {}

  static async start(addresses: Record<string, string>, silent: (name: string) => boolean): Promise<FakeDnsServer> {
    const socket = createSocket('udp4');
    const server = new FakeDnsServer(socket, addresses, silent);
    socket.on('message', (message, peer) => server.answer(message, peer.address, peer.port));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return server;
  }

  /** As WEBHOOK_DNS_SERVERS takes it. */
  get address(): string {
    return `127.0.0.1:${this.socket.address().port}`;
  }

  /** The names of the queries held unanswered now. */
  get holding(): string[] {
    return [...new Set(this.held.map(({ message }) => question(message).name))];
  }

  /** Answers the held queries, and every later one, as names that do not exist. */
  release(): void {
    this.released = true;
    const held = this.held;
    this.held = [];
    for (const { message, host, port } of held) this.reply(message, host, port);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer, host: string, port: number): void {
    this.asked.push(question(message).name);
    this.reply(message, host, port);
  }

  private reply(message: Buffer, host: string, port: number): void {
    const { name, type, end } = question(message);
    if (!this.released && this.silent(name)) {
      this.held.push({ message, host, port });
      return;
    }
    const address = this.addresses[name];
    const header = Buffer.alloc(12);
    message.copy(header, 0, 0, 2);
    // A response to a recursive query, recursion available; NXDOMAIN for an unknown name.
    header.writeUInt16BE(address === undefined ? 0x8183 : 0x8180, 2);
    header.writeUInt16BE(1, 4);
    const records: Buffer[] = [];
    if (address !== undefined && type === TYPE_A) {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(TYPE_A, 2);
      record.writeUInt16BE(1, 4); // class IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(4, 10);
      address.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
      records.push(record);
    }
    header.writeUInt16BE(records.length, 6);
    this.socket.send(Buffer.concat([header, message.subarray(12, end), ...records]), port, host);
  }
}
