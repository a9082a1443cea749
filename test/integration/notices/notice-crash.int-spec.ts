import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { NoticeReceiver, answer200, eventually, verifyNotice } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, recordNotice } from '../../utils/notice-setup.js';
import { createTenant } from '../../utils/tenant-factory.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * No notice is lost when the processes around it die: the real worker (compiled, run as a child
 * process) is SIGKILLed in the middle of a delivery, its Redis is killed and restarted empty, and
 * the real API is SIGKILLed right after a write commits. The Redis is a private redis-server on a
 * port of its own (the shared one is never touched).
 */
jest.setTimeout(120_000);

let redisPort: number;
let redis: Child;
let worker: Child | null = null;
let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;

const processEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  childEnv('crash', {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s,2s,2s,2s,2s,2s',
    NOTICE_SWEEP_EVERY_MS: '500',
    ...extra,
  });

async function startRedis(): Promise<void> {
  redis = Child.spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    PATH: process.env.PATH,
  });
  const client = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await eventually(
      async () => {
        try {
          if (client.status !== 'ready') await client.connect();
          return (await client.ping()) === 'PONG';
        } catch {
          client.disconnect();
          return false;
        }
      },
      10_000,
      'the private redis-server',
    );
  } finally {
    client.disconnect();
  }
}

async function startWorker(): Promise<Child> {
  const child = Child.spawn(process.execPath, ['dist/apps/worker/src/main.js'], processEnv());
  await child.waitForOutput(/Worker started/);
  return child;
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
}

async function delivery(noticeId: string): Promise<DeliveryRow | undefined> {
  const rows = await db.query<DeliveryRow[]>('SELECT id, status, attempts FROM notice_deliveries WHERE notice_id = $1', [noticeId]);
  return rows[0];
}

beforeAll(async () => {
  await buildApps();
  redisPort = await freePort();
  await startRedis();
  ({ app, sql: db } = await startTestContext({ app: 'admin' }));
  receiver = await NoticeReceiver.start();
});

afterAll(async () => {
  await worker?.kill();
  await redis?.kill();
  await app?.close();
  await receiver?.close();
});

describe('no notice is lost', () => {
  it('when the worker is SIGKILLed during a delivery: a new worker sends it again, with the same id', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/killed'), ['client.created']);
    receiver.respond = (notice) =>
      notice.path === '/killed' && receiver.received.filter((r) => r.path === '/killed').length === 1 ? 'hang' : { status: 200 };
    worker = await startWorker();
    const notice = await recordNotice(app, business);

    await receiver.waitFor(() => receiver.withId(notice.id).length === 1);
    await worker.kill();
    // The attempt died with the process, before it could be recorded.
    expect(await delivery(notice.id)).toMatchObject({ status: 'PENDING', attempts: 0 });

    worker = await startWorker();
    await receiver.waitFor(() => receiver.withId(notice.id).length === 2, 60_000);
    const [first, second] = receiver.withId(notice.id);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verifyNotice(endpoint.secret, second)).toEqual(notice);
    await eventually(async () => (await delivery(notice.id))?.status === 'DELIVERED');
  });

  it('when Redis dies and comes back empty: the notice waiting for a retry and the one recorded meanwhile both arrive', async () => {
    worker ??= await startWorker();
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/redis'), ['client.created', 'sale.created']);
    receiver.respond = (notice) =>
      notice.path === '/redis' && receiver.received.filter((r) => r.path === '/redis').length === 1 ? { status: 500 } : { status: 200 };
    const retried = await recordNotice(app, business);
    await eventually(async () => (await delivery(retried.id))?.attempts === 1, 15_000, 'the first attempt to fail');

    // The retry's job lives only in Redis: kill Redis (no persistence) before it is due.
    await redis.kill();
    const recordedMeanwhile = await recordNotice(app, business, 'sale.created');
    await eventually(async () => Boolean(await delivery(recordedMeanwhile.id)), 15_000, 'the relay to commit while Redis is away');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await startRedis();

    await receiver.waitFor(() => receiver.withId(retried.id).length === 2 && receiver.withId(recordedMeanwhile.id).length === 1, 60_000);
    const [failedOnce, retriedLater] = receiver.withId(retried.id);
    expect(retriedLater.headers['webhook-id']).toBe(failedOnce.headers['webhook-id']);
    expect(verifyNotice(endpoint.secret, retriedLater)).toEqual(retried);
    expect(verifyNotice(endpoint.secret, receiver.withId(recordedMeanwhile.id)[0])).toEqual(recordedMeanwhile);
    await eventually(
      async () => (await delivery(retried.id))?.status === 'DELIVERED' && (await delivery(recordedMeanwhile.id))?.status === 'DELIVERED',
    );
    expect((await delivery(retried.id))?.attempts).toBe(2);
  });

  it('when the API is SIGKILLed right after a write commits: the notice is delivered by the worker', async () => {
    worker ??= await startWorker();
    receiver.respond = answer200;
    const tenant = await createTenant({ scopes: ['clients.write'] });
    const business = { id: tenant.businessId, slug: tenant.slug };
    const endpoint = await createEndpoint(app, business, receiver.url('/after-api'), ['client.created']);
    const apiPort = await freePort();
    const api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], processEnv({ PORT: String(apiPort) }));
    try {
      await api.waitForOutput(/Listening on/);
      const response = fetch(`http://127.0.0.1:${apiPort}/v1/api/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', 'idempotency-key': `crash-${Date.now()}` },
        body: JSON.stringify({ name: 'Rita Lopes', phone: '+351913000123', consent: true }),
      }).catch(() => null);
      // Kill the API the moment the write is visible, i.e. committed: whatever it was about to do next never happens.
      const [row] = await eventually(
        async () => {
          const rows = await db.query<{ id: string; client: string }[]>(
            `SELECT id, payload->'data'->>'id' AS client FROM notices WHERE business_id = $1`,
            [tenant.businessId],
          );
          return rows.length > 0 ? rows : null;
        },
        15_000,
        'the write to commit',
      ).then(async (rows) => {
        await api.kill();
        return rows;
      });
      await response;

      const clients = await db.query<{ id: string }[]>('SELECT id FROM clients WHERE business_id = $1', [tenant.businessId]);
      expect(clients.map((c) => c.id)).toEqual([row.client]);
      await receiver.waitFor(() => receiver.withId(row.id).length === 1, 30_000);
      const body = verifyNotice(endpoint.secret, receiver.withId(row.id)[0]);
      expect(body).toMatchObject({ id: row.id, type: 'client.created', business: tenant.slug, data: { id: row.client } });
    } finally {
      await api.kill();
    }
  });
});
