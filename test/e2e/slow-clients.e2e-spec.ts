import { jest } from '@jest/globals';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { E2eApi } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';

/**
 * docs/design-record.md#d25: a client that trickles its request holds a connection no longer than
 * the server's limits (headers within HTTP_HEADERS_TIMEOUT_MS, the whole request within
 * HTTP_REQUEST_TIMEOUT_MS, set low here), and a request without a valid key is refused before its
 * body is read. Raw sockets, as a slow or hostile client sends bytes.
 */
jest.setTimeout(30_000);

let api: E2eApi;
let port: number;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start(testConfig({ HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' }));
  await api.app.listen(0, '127.0.0.1');
  port = (api.app.getHttpServer().address() as AddressInfo).port;
  tenant = await createTenant();
});
afterAll(() => api.close());

/** A connection to the API that keeps what the server sent, and can send a line every few moments until the server closes it. */
class RawConnection {
  private readonly socket: Socket;
  received = '';
  /** Settles when the server has closed the connection. */
  readonly closed: Promise<void>;
  private trickle: NodeJS.Timeout | undefined;

  constructor() {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        clearInterval(this.trickle);
        resolve();
      }),
    );
  }

  send(text: string): void {
    if (this.socket.writable) this.socket.write(text);
  }

  /** Sends `piece` every 50 ms, for as long as the connection stays open. */
  trickleForever(piece: string): void {
    this.trickle = setInterval(() => this.send(piece), 50);
  }

  /** The status of the first answer received, once its status line has arrived. */
  async status(): Promise<number> {
    while (!/^HTTP\/1\.1 \d{3} /.test(this.received)) {
      await Promise.race([this.closed, new Promise((resolve) => this.socket.once('data', resolve))]);
      if (this.socket.destroyed && !/^HTTP\/1\.1 \d{3} /.test(this.received)) throw new Error('closed without an answer');
    }
    return Number(this.received.slice(9, 12));
  }

  destroy(): void {
    clearInterval(this.trickle);
    this.socket.destroy();
  }
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

describe('a request without a valid key', () => {
  it('is refused 401 without its body being read, and its connection closed, while the body never arrives', async () => {
    const connection = new RawConnection();
    try {
      connection.send(
        head([
          'POST /v1/api/clients HTTP/1.1',
          'Host: 127.0.0.1',
          'Content-Type: application/json',
          'Content-Length: 4096',
          'Idempotency-Key: never-sent-body-1',
        ]) + '{"name":',
      );
      // Only the headers and 8 bytes of the 4096 announced: nothing more is ever sent.
      expect(await connection.status()).toBe(401);
      await connection.closed;
      expect(connection.received).toMatch(/\r\nconnection: close\r\n/i);
      expect(connection.received).toMatch(/"code":"API_KEY_INVALID"/);
    } finally {
      connection.destroy();
    }
  });
});

describe('a client that sends slowly', () => {
  it('gets 408 and its connection closed when its headers take longer than HTTP_HEADERS_TIMEOUT_MS', async () => {
    const connection = new RawConnection();
    try {
      connection.send('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      connection.trickleForever('X-Slow: 1\r\n');
      await connection.closed;
      expect(await connection.status()).toBe(408);
    } finally {
      connection.destroy();
    }
  });

  it('gets 408 and its connection closed when its body takes longer than HTTP_REQUEST_TIMEOUT_MS, with a valid key', async () => {
    const connection = new RawConnection();
    try {
      connection.send(
        head([
          'POST /v1/api/clients HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: Bearer ${tenant.key}`,
          'Content-Type: application/json',
          'Content-Length: 4096',
          'Idempotency-Key: trickled-body-1',
        ]),
      );
      connection.trickleForever(' ');
      await connection.closed;
      expect(await connection.status()).toBe(408);
    } finally {
      connection.destroy();
    }
  });

  it('is served when it sends in time, under the same limits', async () => {
    const connection = new RawConnection();
    try {
      connection.send(head(['GET /health/live HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close']));
      expect(await connection.status()).toBe(200);
    } finally {
      connection.destroy();
    }
  });
});
