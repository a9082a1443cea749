import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { isConnectionWaitTimeout, ShareWaitTimeoutError } from './connection-wait.js';

/** A server that takes TCP connections and never answers: PostgreSQL too busy to let anyone in. */
async function silentServer(): Promise<{ server: Server; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sockets };
}

describe('isConnectionWaitTimeout', () => {
  it("recognises both of pg's pool errors for no connection in time, a business's wait for its share, and nothing else", async () => {
    const { server, sockets } = await silentServer();
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      user: 'nobody',
      max: 1,
      connectionTimeoutMillis: 200,
    });
    try {
      // The first opens the pool's one connection, which never completes; the second waits for it.
      const [opening, waiting] = await Promise.allSettled([pool.connect(), pool.connect()]);
      const reasons = [opening, waiting].map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error) : null));
      expect(reasons.map((reason) => reason?.message)).toEqual([
        'Connection terminated due to connection timeout',
        'timeout exceeded when trying to connect',
      ]);
      expect(reasons.map(isConnectionWaitTimeout)).toEqual([true, true]);
    } finally {
      await pool.end();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(isConnectionWaitTimeout(new ShareWaitTimeoutError(5000))).toBe(true);
    expect(isConnectionWaitTimeout(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isConnectionWaitTimeout(new Error('terminating connection due to administrator command'))).toBe(false);
    expect(isConnectionWaitTimeout('timeout exceeded when trying to connect')).toBe(false);
  });
});
