import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { eventually } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { createTenant } from '../../utils/tenant-factory.js';
import { TEST_DATABASE_NAME } from '../../utils/test-database.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * SIGTERM drains: the compiled API and worker, run as a deployment runs them, finish what they
 * are doing (a request under way, a notice being delivered) before they exit, and exit 0.
 */
jest.setTimeout(120_000);

// A queue namespace of these tests only, emptied first: no job of another test reaches these processes.
const QUEUE_PREFIX = `drain-${TEST_DATABASE_NAME}`;
const config = testConfig({ QUEUE_PREFIX });
let app: INestApplicationContext;
let db: TestSql;
const children: Child[] = [];

const processEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => childEnv('drain', { QUEUE_PREFIX, ...extra });

async function start(script: 'api' | 'worker', ready: RegExp, extra: Record<string, string> = {}): Promise<Child> {
  const child = Child.spawn(process.execPath, [`dist/apps/${script}/src/main.js`], processEnv(extra));
  children.push(child);
  await child.waitForOutput(ready);
  return child;
}

/** A receiver that holds every notice for `holdMs` before it answers 200. */
async function slowReceiver(holdMs: number): Promise<{ server: Server; url: string; arrived: IncomingMessage[] }> {
  const arrived: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    arrived.push(req);
    req.resume();
    setTimeout(() => res.writeHead(200).end('ok'), holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`, arrived };
}

async function deliveryOf(noticeId: string): Promise<{ status: string; attempts: number } | undefined> {
  const rows = await db.query<{ status: string; attempts: number }[]>(
    'SELECT status, attempts FROM notice_deliveries WHERE notice_id = $1',
    [noticeId],
  );
  return rows[0];
}

const stillRunning = (child: Child) => child.process.exitCode === null && child.process.signalCode === null;

beforeAll(async () => {
  await emptyNoticesQueue(config);
  await buildApps();
  ({ app, sql: db } = await startTestContext({ app: 'admin', config: { QUEUE_PREFIX } }));
});

afterAll(async () => {
  for (const child of children) await child.kill();
  await app?.close();
});

describe('SIGTERM', () => {
  it('lets the API finish a request under way, stops taking new connections, then exits 0', async () => {
    const tenant = await createTenant({ scopes: ['clients.write'] });
    const port = await freePort();
    const api = await start('api', /Listening on/, { PORT: String(port) });

    // A request whose body is still arriving when the signal comes: the server has it in hand.
    const body = JSON.stringify({ name: 'Rita Lopes', phone: '+351913000777', consent: true });
    const half = Math.floor(body.length / 2);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/api/clients',
      agent: false,
      headers: {
        authorization: `Bearer ${tenant.key}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'idempotency-key': `drain-${Date.now()}`,
      },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, half));
    await new Promise((resolve) => setTimeout(resolve, 300));

    api.process.kill('SIGTERM');
    // New connections are refused while the one under way is served.
    await eventually(
      // A new connection each time: fetch would reuse a kept-alive one, which outlives the listener.
      () =>
        new Promise<boolean>((resolve) => {
          const probe = httpRequest({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => {
            res.resume();
            resolve(false);
          });
          probe.on('error', () => resolve(true));
          probe.end();
        }),
      // Generous: on a loaded machine the signal can take a while to be handled; what matters is
      // that the listener closes while the request under way is still served.
      20_000,
      'the listener to close',
    );
    expect(stillRunning(api)).toBe(true);

    req.end(body.slice(half));
    const answered = await response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text)).toMatchObject({ name: 'Rita Lopes', phone: '+351913000777' });
    expect(await api.exited).toBe(0);
  });

  it('lets the worker finish the delivery it is making, then exits 0', async () => {
    const receiver = await slowReceiver(1_500);
    try {
      const business = await createBusiness();
      await createEndpoint(app, business, receiver.url, ['client.created']);
      const worker = await start('worker', /Worker started/);
      const notice = await recordNotice(app, business);
      await eventually(() => Promise.resolve(receiver.arrived.length === 1), 15_000, 'the delivery to start');

      worker.process.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(stillRunning(worker)).toBe(true);
      expect(await worker.exited).toBe(0);
      expect(await deliveryOf(notice.id)).toEqual({ status: 'DELIVERED', attempts: 1 });
      expect(worker.output).not.toMatch(/"level":50/);
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });

  it('lets the API without Redis (IN_PROCESS_JOBS) finish the delivery it is making, then exits 0', async () => {
    const receiver = await slowReceiver(1_500);
    try {
      const business = await createBusiness();
      await createEndpoint(app, business, receiver.url, ['client.created']);
      const api = await start('api', /Listening on/, { PORT: String(await freePort()), IN_PROCESS_JOBS: 'true', REDIS_URL: '' });
      const notice = await recordNotice(app, business);
      await eventually(
        () => Promise.resolve(receiver.arrived.some((req) => req.headers['webhook-id'] === notice.id)),
        15_000,
        'the delivery to start',
      );

      api.process.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(stillRunning(api)).toBe(true);
      expect(await api.exited).toBe(0);
      expect(await deliveryOf(notice.id)).toEqual({ status: 'DELIVERED', attempts: 1 });
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });
});
