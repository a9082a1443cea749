import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NOTICE_SEND_LIMITS, NOTICE_SEND_LIMITS_D9 } from '#core/notices/delivery/notice-sender.js';
import { NOTICE_DELIVERY_CONCURRENCY, SANDBOX_NOTICE_DELIVERY_CONCURRENCY } from '#jobs/job-concurrency.js';
import { E2eApi } from '../utils/e2e-api.js';
import { NoticeReceiver, answer200, eventually, type ReceivedNotice } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { testConfig } from '../utils/test-config.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';
import { startTestContext, testSql, type TestSql } from '../utils/test-context.js';

/**
 * The worker's delivery slots (docs/design-record.md#d24): a hostile business has 16 endpoints
 * and 16 more in its sandbox, all on a receiver that holds every request until the test lets go.
 * It never has more than WEBHOOK_BUSINESS_CONCURRENCY (8) deliveries in flight at once, live and
 * sandbox together; its sandbox never more than a quarter of the worker's 20 slots; and the
 * victim's notice arrives while the hostile ones are all stuck. The sender's time-out is lifted,
 * so a held request stays held: what is counted is how many the receiver holds, never how long
 * anything takes. (Before the business slots, the hostile business filled all 20 of the worker's
 * slots and the victim's notice waited for them.)
 */
const BUSINESS_CAP = 8;
const ENDPOINTS = 16;
const NOTICES_EACH = 2;
const settings = { WEBHOOK_BUSINESS_CONCURRENCY: String(BUSINESS_CAP) };

let api: E2eApi;
let worker: INestApplicationContext;
let db: TestSql;
let tarpit: NoticeReceiver;
let healthy: NoticeReceiver;

/** The most hostile requests held at once, all of them and the sandbox's, counted as each arrives. */
const peak = { business: 0, sandbox: 0 };
const fromSandbox = (notice: ReceivedNotice) => notice.path.startsWith('/sandbox/');

beforeAll(async () => {
  const config = testConfig(settings);
  await emptyNoticesQueue(config);
  tarpit = await NoticeReceiver.start((notice) => {
    const held = [...tarpit.held(), notice];
    peak.business = Math.max(peak.business, held.length);
    peak.sandbox = Math.max(peak.sandbox, held.filter(fromSandbox).length);
    return 'hang';
  });
  healthy = await NoticeReceiver.start();
  api = await E2eApi.start(config);
  db = testSql(api.app);
  ({ app: worker } = await startTestContext({
    app: 'worker',
    config: settings,
    providers: [[NOTICE_SEND_LIMITS, { ...NOTICE_SEND_LIMITS_D9, totalTimeoutMs: 30 * 60_000 }]],
  }));
});
afterAll(async () => {
  await tarpit.close();
  await worker.close();
  await api.close();
  await healthy.close();
});

const business = () => createTenantWithSandbox();

const write = async (path: string, key: string, body: unknown) => {
  const res = await api.post(path, { key, body, headers: { 'Idempotency-Key': randomUUID() } });
  expect(res.status).toBe(201);
  return res;
};

const newClient = (key: string) =>
  write('/clients', key, {
    name: 'Cliente',
    phone: `+35196${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
    consent: true,
  });

describe("the worker's delivery slots beside a hostile business", () => {
  it('holds at most 8 of its deliveries at once (live and sandbox), its sandbox at most a quarter of the worker, and delivers the victim’s notice meanwhile', async () => {
    expect(SANDBOX_NOTICE_DELIVERY_CONCURRENCY).toBe(NOTICE_DELIVERY_CONCURRENCY / 4);
    const hostile = await business();
    const victim = await business();
    for (let i = 0; i < ENDPOINTS; i++) {
      await write('/webhook-endpoints', hostile.live, { url: tarpit.url(`/live/${i}`), events: ['client.created'] });
      await write('/webhook-endpoints', hostile.test, { url: tarpit.url(`/sandbox/${i}`), events: ['client.created'] });
    }
    await write('/webhook-endpoints', victim.live, { url: healthy.url('/victim'), events: ['client.created'] });

    // The sandbox first: it takes its quarter of the worker and no more, though its business has
    // room for 8 and 32 of its deliveries are due.
    for (let i = 0; i < NOTICES_EACH; i++) await newClient(hostile.test);
    await tarpit.waitFor(() => tarpit.held().filter(fromSandbox).length >= SANDBOX_NOTICE_DELIVERY_CONCURRENCY, 60_000);
    // Then the live business: it takes what is left of the 8.
    for (let i = 0; i < NOTICES_EACH; i++) await newClient(hostile.live);
    await tarpit.waitFor(() => tarpit.holding >= BUSINESS_CAP, 60_000);

    const victimClient = await newClient(victim.live);
    await healthy.waitFor((received) => received.some((notice) => notice.body.includes(victimClient.body.id as string)), 60_000);
    expect(healthy.received).toHaveLength(1);

    // Every hostile delivery that got a slot is still held, and none got one beyond the caps.
    expect(tarpit.holding).toBe(BUSINESS_CAP);
    expect(tarpit.received).toHaveLength(BUSINESS_CAP);
    expect(peak).toEqual({ business: BUSINESS_CAP, sandbox: SANDBOX_NOTICE_DELIVERY_CONCURRENCY });

    // Let go: every hostile delivery arrives in the end, each at its first attempt (waiting for a
    // slot used none up).
    tarpit.respond = answer200;
    tarpit.release();
    const total = 2 * NOTICES_EACH * ENDPOINTS;
    await tarpit.waitFor((received) => received.length >= total, 120_000);
    const settled = await eventually(
      async () => {
        const rows = await db.query<{ status: string; attempts: number }[]>(
          `SELECT d.status, d.attempts FROM notice_deliveries d JOIN businesses b ON b.id = d.business_id
            WHERE $1 IN (b.id, b.live_business_id)`,
          [hostile.id],
        );
        return rows.length === total && rows.every((row) => row.status === 'DELIVERED') ? rows : null;
      },
      30_000,
      'every hostile delivery DELIVERED',
    );
    expect(settled.every((row) => row.attempts === 1)).toBe(true);
    expect(tarpit.received).toHaveLength(total);
  }, 300_000);
});
