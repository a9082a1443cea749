import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { DeliveredNotice } from '#core/notices/outbox/notice-body.js';
import { Child, buildApps, childEnv } from '../utils/child-process.js';
import { NoticeReceiver, eventually, verifyNotice } from '../utils/notice-receiver.js';
import { createBusiness, createEndpoint, recordNotice } from '../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../utils/test-context.js';

/**
 * The worker process itself as a shared resource (docs/design-record.md#d24): the real worker
 * (compiled, a child process on this run's Redis under a prefix of its own) beside a hostile
 * business whose endpoints' secrets cannot be opened, queued before the worker starts as after a
 * restart, and one whose endpoint is deleted while a delivery to it is under way. The worker stays
 * up; each bad delivery is a failed attempt with the reason in the delivery log, on the retry
 * schedule to its end; and every notice of the victim business arrives. (Before, the lookup of
 * such a delivery failed, as often as not before its endpoint slot came from Redis, and the
 * rejection nobody awaited yet ended the process: every worker died within seconds of its start.)
 */
const UNUSABLE = "not sent: the endpoint's signing secret cannot be opened by the service; rotating the secret replaces it";
const BAD_ENDPOINTS = 4;
const NOTICES = 5;

let admin: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;
let worker: Child | null = null;
const damaged: string[] = [];

beforeAll(async () => {
  await buildApps();
  ({ app: admin, sql: db } = await startTestContext({ app: 'admin' }));
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await worker?.kill();
  // No row that cannot be opened is left for the suites after this one.
  await db?.query('DELETE FROM webhook_endpoints WHERE id = ANY($1::uuid[])', [damaged]);
  await admin?.close();
  await receiver?.close();
});

async function startWorker(): Promise<Child> {
  const child = Child.spawn(
    process.execPath,
    ['dist/apps/worker/src/main.js'],
    childEnv('worker-crash', { WEBHOOK_RETRY_SCHEDULE: '500ms,500ms', NOTICE_SWEEP_EVERY_MS: '500' }),
  );
  await child.waitForOutput(/Worker started/);
  return child;
}

interface DeliveryState {
  status: string;
  attempts: number;
  errors: (string | null)[];
}

/** Each delivery of the notice: its state and its attempts' errors, in order. */
async function deliveriesOf(noticeId: string): Promise<DeliveryState[]> {
  return db.query<DeliveryState[]>(
    `SELECT d.status, d.attempts,
            coalesce(array_agg(a.error ORDER BY a.attempt) FILTER (WHERE a.id IS NOT NULL), '{}') AS errors
       FROM notice_deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
      WHERE d.notice_id = $1
      GROUP BY d.id`,
    [noticeId],
  );
}

describe('the worker beside a business whose rows it cannot use', () => {
  it('stays up, records each bad delivery as a failed attempt with the reason, and delivers every notice of the victim', async () => {
    const hostile = await createBusiness();
    const victim = await createBusiness();
    for (let i = 0; i < BAD_ENDPOINTS; i++) {
      const endpoint = await createEndpoint(admin, hostile, receiver.url(`/hostile/${i}`), ['client.created']);
      damaged.push(endpoint.id);
      // The configured key id, and a value that does not open under it (damaged, or sealed by a key now gone).
      await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [
        endpoint.id,
        `v1:test1:${randomBytes(60).toString('base64url')}`,
      ]);
    }
    const victimEndpoint = await createEndpoint(admin, victim, receiver.url('/victim'), ['client.created']);

    // Queued before the worker starts, as what a restarted worker finds waiting.
    const hostileNotices: DeliveredNotice[] = [];
    const victimNotices: DeliveredNotice[] = [];
    for (let i = 0; i < NOTICES; i++) {
      hostileNotices.push(await recordNotice(admin, hostile));
      victimNotices.push(await recordNotice(admin, victim));
    }
    worker = await startWorker();

    // A delivery whose endpoint is deleted while its request is under way.
    const vanishing = await createBusiness();
    const doomed = await createEndpoint(admin, vanishing, receiver.url('/vanishing'), ['client.created']);
    receiver.respond = (notice) => (notice.path === '/vanishing' ? 'hang' : { status: 200 });
    const vanishingNotice = await recordNotice(admin, vanishing);
    await receiver.waitFor(() => receiver.withId(vanishingNotice.id).length === 1, 30_000);
    await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [doomed.id]);
    receiver.release({ status: 500 });
    for (let i = 0; i < NOTICES; i++) victimNotices.push(await recordNotice(admin, victim));

    // Every victim notice arrives, signed.
    await receiver.waitFor(() => victimNotices.every((notice) => receiver.withId(notice.id).length >= 1), 60_000);
    for (const notice of victimNotices) expect(verifyNotice(victimEndpoint.secret, receiver.withId(notice.id)[0])).toEqual(notice);

    // Every hostile delivery ran its schedule (three attempts) to FAILED, each attempt with the reason; none was sent.
    for (const notice of hostileNotices) {
      const states = await eventually(
        async () => {
          const rows = await deliveriesOf(notice.id);
          return rows.length === BAD_ENDPOINTS && rows.every((row) => row.status === 'FAILED') ? rows : null;
        },
        60_000,
        `the hostile notice ${notice.id} to fail at every endpoint`,
      );
      expect(states).toEqual(
        Array.from({ length: BAD_ENDPOINTS }, () => ({ status: 'FAILED', attempts: 3, errors: [UNUSABLE, UNUSABLE, UNUSABLE] })),
      );
    }
    expect(receiver.received.filter((notice) => notice.path.startsWith('/hostile/'))).toEqual([]);
    // The delivery went with its endpoint: nothing is left of it, and nothing was sent again.
    expect(await deliveriesOf(vanishingNotice.id)).toEqual([]);
    expect(receiver.withId(vanishingNotice.id)).toHaveLength(1);

    // And the worker never stopped.
    expect({ exitCode: worker.process.exitCode, signal: worker.process.signalCode }).toEqual({ exitCode: null, signal: null });
  }, 180_000);
});
