import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import { QueueEvents, type Queue } from 'bullmq';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { NoticeDeliveriesRepository } from '#core/notices/delivery/notice-deliveries.repository.js';
import { NoticeDeliveriesService } from '#core/notices/delivery/notice-deliveries.service.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { newId } from '#database/new-id.js';
import { NOTICE_EVENTS_KEPT } from '#jobs/drivers/bullmq/bullmq-queue-settings.js';
import { MAINTENANCE_QUEUE, MaintenanceJob, NOTICES_QUEUE, noticeDeliveryJobId } from '#jobs/queues.js';
import { NoticeReceiver, answer200, eventually, verifyNotice } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

// Six attempts half a second apart: the whole schedule runs in about three seconds.
const settings = { WEBHOOK_RETRY_SCHEDULE: '500ms,500ms,500ms,500ms,500ms', NOTICE_SWEEP_EVERY_MS: '500' };
const config = testConfig(settings);

let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;

beforeAll(async () => {
  await emptyNoticesQueue(config);
  ({ app, sql: db } = await startTestContext({ app: 'worker', config: settings }));
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.respond = answer200;
});

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
}

async function deliveryOf(noticeId: string, endpointId: string): Promise<DeliveryRow> {
  const rows = await db.query<DeliveryRow[]>(
    'SELECT id, status, attempts FROM notice_deliveries WHERE notice_id = $1 AND endpoint_id = $2',
    [noticeId, endpointId],
  );
  return rows[0];
}

async function attemptsOf(
  deliveryId: string,
): Promise<{ status_code: number | null; duration_ms: number; error: string | null; attempted_at: Date }[]> {
  return db.query(
    'SELECT status_code, duration_ms, error, attempted_at FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempted_at',
    [deliveryId],
  );
}

const waitForStatus = (noticeId: string, endpointId: string, status: string, timeoutMs = 15_000) =>
  eventually(
    async () => {
      const delivery = await deliveryOf(noticeId, endpointId);
      return delivery?.status === status ? delivery : null;
    },
    timeoutMs,
    `delivery ${status}`,
  );

describe('notice delivery (worker in process, real Redis, receiver on loopback)', () => {
  it('POSTs the D9 body with Standard Webhooks headers that the standardwebhooks library verifies', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/signed'), ['client.created']);
    const before = Math.floor(Date.now() / 1000);
    const notice = await recordNotice(app, business, 'client.created');

    await receiver.waitFor(() => receiver.withId(notice.id).length === 1);
    const [received] = receiver.withId(notice.id);
    expect(received.path).toBe('/signed');
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body)).toEqual(notice);
    expect(Object.keys(JSON.parse(received.body) as object)).toEqual(['id', 'type', 'createdAt', 'business', 'mode', 'data']);
    expect(received.headers['x-service-signature']).toBe(received.headers['webhook-signature']);
    expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    const timestamp = Number(received.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    expect(verifyNotice(endpoint.secret, received)).toEqual(notice);
    // A receiver must refuse a notice whose body or timestamp was altered on the way.
    expect(() => verifyNotice(endpoint.secret, { ...received, body: received.body.replace(business.slug, 'someone-else') })).toThrow();
    expect(() =>
      verifyNotice(endpoint.secret, { ...received, headers: { ...received.headers, 'webhook-timestamp': String(timestamp - 1) } }),
    ).toThrow();
    expect(() => verifyNotice(endpoint.secret, { ...received, headers: { ...received.headers, 'webhook-id': newId() } })).toThrow();

    const delivery = await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    expect(delivery.attempts).toBe(1);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts).toEqual([{ status_code: 200, duration_ms: expect.any(Number), error: null, attempted_at: expect.any(Date) }]);
    const [{ relayed_at }] = await db.query<{ relayed_at: Date | null }[]>('SELECT relayed_at FROM notices WHERE id = $1', [notice.id]);
    expect(relayed_at).toBeInstanceOf(Date);
  });

  it('sends to every enabled endpoint subscribed to the type, and only to those', async () => {
    const business = await createBusiness();
    const other = await createBusiness();
    const a = await createEndpoint(app, business, receiver.url('/a'), ['sale.created', 'payment.received']);
    const b = await createEndpoint(app, business, receiver.url('/b'), ['sale.created']);
    await createEndpoint(app, business, receiver.url('/not-subscribed'), ['client.created']);
    const disabled = await createEndpoint(app, business, receiver.url('/disabled'), ['sale.created']);
    await db.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [disabled.id]);
    await createEndpoint(app, other, receiver.url('/other-business'), ['sale.created']);

    const notice = await recordNotice(app, business, 'sale.created');
    await receiver.waitFor(() => receiver.withId(notice.id).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(
      receiver
        .withId(notice.id)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/a', '/b']);
    const deliveries = await db.query<{ endpoint_id: string }[]>('SELECT endpoint_id FROM notice_deliveries WHERE notice_id = $1', [
      notice.id,
    ]);
    expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual([a.id, b.id].sort());
  });

  it('retries while the receiver is down and delivers, with the same id, once it is up', async () => {
    const parked = await NoticeReceiver.start();
    const port = parked.port;
    await parked.close();
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, `http://127.0.0.1:${port}/late`, ['client.created']);
    const notice = await recordNotice(app, business);

    const failed = await eventually(
      async () => {
        const delivery = await deliveryOf(notice.id, endpoint.id);
        return delivery && delivery.attempts >= 2 ? delivery : null;
      },
      10_000,
      'two failed attempts',
    );
    const late = await NoticeReceiver.start(answer200, port);
    try {
      await late.waitFor(() => late.withId(notice.id).length === 1);
      expect(verifyNotice(endpoint.secret, late.withId(notice.id)[0])).toEqual(notice);
      const delivered = await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
      const attempts = await attemptsOf(failed.id);
      expect(attempts.length).toBe(delivered.attempts);
      expect(attempts.slice(0, -1).every((a) => a.status_code === null && /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);
      expect(attempts.at(-1)).toMatchObject({ status_code: 200, error: null });
    } finally {
      await late.close();
    }
  });

  it('marks the delivery FAILED after the last attempt, keeps it, and a replay sends it again with the same id', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/flaky'), ['payment.received']);
    receiver.respond = (notice) => (notice.path === '/flaky' ? { status: 500, body: 'database is down\nsorry' } : { status: 200 });
    const notice = await recordNotice(app, business, 'payment.received');

    const failed = await waitForStatus(notice.id, endpoint.id, 'FAILED', 20_000);
    expect(failed.attempts).toBe(6);
    const attempts = await attemptsOf(failed.id);
    expect(attempts).toHaveLength(6);
    expect(attempts.every((a) => a.status_code === 500 && a.error === 'HTTP 500: database is down sorry')).toBe(true);
    // The schedule was followed: about half a second (±20%) between attempts.
    const gaps = attempts.slice(1).map((a, i) => a.attempted_at.getTime() - attempts[i].attempted_at.getTime());
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(380);
    expect(receiver.withId(notice.id)).toHaveLength(6);

    const listed = await app.get(NoticeDeliveriesService).list(business.id, { status: 'FAILED' });
    expect(listed).toEqual([
      expect.objectContaining({ noticeId: notice.id, endpointId: endpoint.id, status: 'FAILED', attempts: 6, type: 'payment.received' }),
    ]);
    expect(listed[0].lastAttempt).toMatchObject({ statusCode: 500 });

    receiver.respond = answer200;
    const replay = await app.get(NoticeDeliveriesService).sendAgain(business.id, notice.id, { to: 'endpoints-it-went-to' });
    expect(replay).toEqual({ noticeId: notice.id, relayed: true, endpointIds: [endpoint.id], queued: [endpoint.id] });
    await receiver.waitFor(() => receiver.withId(notice.id).length === 7);
    const resent = receiver.withId(notice.id)[6];
    expect(verifyNotice(endpoint.secret, resent)).toEqual(notice);
    const delivered = await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    expect(delivered.attempts).toBe(1);
    expect(await attemptsOf(failed.id)).toHaveLength(7);
  });

  it('honours a Retry-After on 429 beyond the schedule', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/busy'), ['client.created']);
    receiver.respond = (notice) =>
      notice.path === '/busy' && receiver.received.filter((r) => r.path === '/busy').length === 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : { status: 200 };
    const notice = await recordNotice(app, business);

    await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    const [first, second] = receiver.withId(notice.id);
    expect(second.at - first.at).toBeGreaterThanOrEqual(1_900);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThan(Number(first.headers['webhook-timestamp']));
  });

  it('disables the endpoint at the first 410 Gone, and fails its other pending deliveries', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/gone'), ['client.created']);
    const waiting = await recordNotice(app, business);
    receiver.respond = (notice) =>
      notice.headers['webhook-id'] === waiting.id ? { status: 503, headers: { 'retry-after': '60' } } : { status: 410 };
    await eventually(async () => (await deliveryOf(waiting.id, endpoint.id))?.attempts === 1);
    const notice = await recordNotice(app, business);

    const failed = await waitForStatus(notice.id, endpoint.id, 'FAILED');
    expect(failed.attempts).toBe(1);
    const [row] = await db.query<{ enabled: boolean; disabled_reason: string }[]>(
      'SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(row).toEqual({ enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    expect(await deliveryOf(waiting.id, endpoint.id)).toMatchObject({ status: 'FAILED', attempts: 1 });

    // A disabled endpoint gets no new deliveries at all.
    const later = await recordNotice(app, business);
    await eventually(async () => {
      const [n] = await db.query<{ relayed_at: Date | null }[]>('SELECT relayed_at FROM notices WHERE id = $1', [later.id]);
      return n.relayed_at !== null;
    });
    expect(await deliveryOf(later.id, endpoint.id)).toBeUndefined();
    expect(receiver.withId(later.id)).toHaveLength(0);

    const enabled = await app.get(WebhookEndpointsService).update(business.id, endpoint.id, { active: true }, business.id);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('fails, without sending, a pending delivery whose endpoint was disabled meanwhile', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/switched-off'), ['client.created']);
    receiver.respond = (notice) => (notice.path === '/switched-off' ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 });
    const notice = await recordNotice(app, business);
    const pending = await eventually(async () => {
      const d = await deliveryOf(notice.id, endpoint.id);
      return d?.attempts === 1 ? d : null;
    });
    await db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'turned off by the business' WHERE id = $1`, [
      endpoint.id,
    ]);

    await waitForStatus(notice.id, endpoint.id, 'FAILED');
    const attempts = await attemptsOf(pending.id);
    expect(attempts.at(-1)).toMatchObject({ status_code: null, error: 'not sent: the endpoint is disabled (turned off by the business)' });
    expect(receiver.withId(notice.id)).toHaveLength(1);
  });

  it('disables an endpoint that has been failing for five days running', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/broken'), ['client.created']);
    await db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [endpoint.id]);
    receiver.respond = (notice) => (notice.path === '/broken' ? { status: 500 } : { status: 200 });
    const notice = await recordNotice(app, business);

    await waitForStatus(notice.id, endpoint.id, 'FAILED');
    const [row] = await db.query<{ enabled: boolean; disabled_reason: string }[]>(
      'SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(row.enabled).toBe(false);
    expect(row.disabled_reason).toMatch(/^every delivery has failed since .* \(5 days\)$/);
  });

  it('clears the run of failures when a delivery succeeds', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/recovered'), ['client.created']);
    await db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '2 days' WHERE id = $1`, [endpoint.id]);
    const notice = await recordNotice(app, business);
    await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    const [row] = await db.query<{ failing_since: Date | null }[]>('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [
      endpoint.id,
    ]);
    expect(row.failing_since).toBeNull();
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/rotated'), ['client.created']);
    const rotated = await app.get(WebhookEndpointsService).rotateSecret(business.id, endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const notice = await recordNotice(app, business);
    await receiver.waitFor(() => receiver.withId(notice.id).length === 1);
    const [received] = receiver.withId(notice.id);
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(received.headers['x-service-signature']).toBe(received.headers['webhook-signature']);
    expect(verifyNotice(rotated.secret, received)).toEqual(notice);
    expect(verifyNotice(endpoint.secret, received)).toEqual(notice);

    // Once the 24 hours are over, only the new secret signs.
    await db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [endpoint.id]);
    const next = await recordNotice(app, business);
    await receiver.waitFor(() => receiver.withId(next.id).length === 1);
    const [single] = receiver.withId(next.id);
    expect(String(single.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyNotice(rotated.secret, single)).toEqual(next);
    expect(() => verifyNotice(endpoint.secret, single)).toThrow();
  });

  it('delivers a burst, batched, with exactly one attempt recorded per delivery', async () => {
    const business = await createBusiness();
    const endpoints = await Promise.all(
      ['/burst-a', '/burst-b'].map((path) => createEndpoint(app, business, receiver.url(path), ['client.created'])),
    );
    const notices = await Promise.all(Array.from({ length: 40 }, () => recordNotice(app, business)));
    for (const notice of notices) {
      for (const endpoint of endpoints) await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    }
    const rows = await db.query<{ attempts: number; recorded: number }[]>(
      `SELECT d.attempts, (SELECT count(*)::int FROM delivery_attempts a WHERE a.delivery_id = d.id) AS recorded
         FROM notice_deliveries d WHERE d.business_id = $1`,
      [business.id],
    );
    expect(rows).toHaveLength(80);
    expect(rows.every((row) => row.attempts === 1 && row.recorded === 1)).toBe(true);
    for (const notice of notices) expect(receiver.withId(notice.id)).toHaveLength(2);
  });

  it('keeps no finished notice job in Redis and only a short events stream: the attempts are the record', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/trimmed'), ['client.created']);
    const notices = await Promise.all(Array.from({ length: 5 }, () => recordNotice(app, business)));
    for (const notice of notices) await waitForStatus(notice.id, endpoint.id, 'DELIVERED');

    const queue = app.get<Queue>(getQueueToken(NOTICES_QUEUE));
    // The job finishes in Redis just after its attempt is recorded in the database.
    await eventually(
      async () => (await Promise.all(notices.map((n) => queue.getJob(noticeDeliveryJobId(n.id, endpoint.id))))).every((job) => !job),
      10_000,
      'the finished jobs to be removed',
    );
    expect((await queue.getJobCounts('completed', 'failed')).completed).toBe(0);
    expect((await queue.getMeta()).maxLenEvents).toBe(NOTICE_EVENTS_KEPT);
    const recorded = await db.query<{ attempts: number; recorded: number }[]>(
      `SELECT d.attempts, (SELECT count(*)::int FROM delivery_attempts a WHERE a.delivery_id = d.id) AS recorded
         FROM notice_deliveries d WHERE d.endpoint_id = $1`,
      [endpoint.id],
    );
    expect(recorded).toEqual(notices.map(() => ({ attempts: 1, recorded: 1 })));
  });

  it('records a success once however often it is recorded, and drops one whose delivery is gone', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/never'), ['client.created']);
    const deliveries = app.get(NoticeDeliveriesRepository);
    const seed = async () => {
      const notice = buildNoticeBody({ type: 'client.created', businessSlug: business.slug, subjectId: newId(), occurredAt: new Date() });
      const id = newId();
      await db.query(`INSERT INTO notices (id, business_id, type, payload, relayed_at) VALUES ($1, $2, $3, $4, now())`, [
        notice.id,
        business.id,
        notice.type,
        notice,
      ]);
      // Due tomorrow: the sweep leaves it to this test.
      await db.query(
        `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'PENDING', 0, now() + interval '1 day')`,
        [id, business.id, notice.id, endpoint.id],
      );
      return { id, businessId: business.id, noticeId: notice.id, endpointId: endpoint.id };
    };
    const [kept, gone] = [await seed(), await seed()];
    await db.query('DELETE FROM notices WHERE id = $1', [gone.noticeId]);
    const record = (delivery: typeof kept) => ({
      delivery,
      attempt: {
        id: newId(),
        deliveryId: delivery.id,
        attemptedAt: new Date(),
        statusCode: 200,
        durationMs: 3,
        error: null,
        requestUrl: null,
        requestHeaders: null,
        apiVersion: null,
        requestBodySha256: null,
        requestBody: null,
        responseExcerpt: null,
        failure: null,
      },
      deliveredAt: new Date(),
    });
    const success = record(kept);
    await deliveries.recordManyDelivered([success, record(gone)]);
    await deliveries.recordManyDelivered([success]);

    expect(await deliveryOf(kept.noticeId, endpoint.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect(await attemptsOf(kept.id)).toHaveLength(1);
    expect(await attemptsOf(gone.id)).toHaveLength(0);
    const found = await deliveries.findManyForSending([gone, kept, { ...kept, endpointId: newId() }]);
    expect(found.map((delivery) => delivery?.id ?? null)).toEqual([null, kept.id, null]);
  });

  it('queues a committed delivery whose job never reached Redis (the sweep)', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/swept'), ['client.created']);
    // What a relay that crashed between its commit and queueing leaves: relayed, a PENDING delivery, no job.
    const notice = buildNoticeBody({ type: 'client.created', businessSlug: business.slug, subjectId: newId(), occurredAt: new Date() });
    await db.transaction(async (sql) => {
      await sql.query(`INSERT INTO notices (id, business_id, type, payload, relayed_at) VALUES ($1, $2, $3, $4, now())`, [
        notice.id,
        business.id,
        notice.type,
        notice,
      ]);
      await sql.query(
        `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'PENDING', 0, now())`,
        [newId(), business.id, notice.id, endpoint.id],
      );
    });
    const queue = app.get<Queue>(getQueueToken(NOTICES_QUEUE), { strict: false });
    await receiver.waitFor(() => receiver.withId(notice.id).length >= 1);
    await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(receiver.withId(notice.id)).toHaveLength(1);
    // Finished jobs are removed, so the id is free for a replay; the database keeps the record.
    expect(await queue.getJob(noticeDeliveryJobId(notice.id, endpoint.id))).toBeUndefined();
  });

  it('adding a queued delivery again is a no-op: the job id is deterministic', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/hold'), ['client.created']);
    receiver.respond = (notice) => (notice.path === '/hold' ? { status: 503, headers: { 'retry-after': '30' } } : { status: 200 });
    const notice = await recordNotice(app, business);
    const delivery = await eventually(async () => {
      const d = await deliveryOf(notice.id, endpoint.id);
      return d && d.attempts === 1 ? d : null;
    });
    const queue = app.get<Queue>(getQueueToken(NOTICES_QUEUE), { strict: false });
    const jobId = noticeDeliveryJobId(notice.id, endpoint.id);
    expect(jobId).toBe(`${notice.id}.${endpoint.id}`);
    const job = await eventually(async () => ((await queue.getJobState(jobId)) === 'delayed' ? queue.getJob(jobId) : null));
    const again = await queue.add('deliver-notice', job.data, { jobId, delay: 0 });
    expect(again.id).toBe(jobId);
    expect(await queue.getJobState(jobId)).toBe('delayed');
    expect((await attemptsOf(delivery.id)).length).toBe(1);
    await queue.remove(jobId);
  });
  it('never attempts before the delivery is due, even when its job runs early', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/early'), ['client.created']);
    receiver.respond = (notice) =>
      notice.path === '/early' && receiver.received.filter((r) => r.path === '/early').length === 1
        ? { status: 503, headers: { 'retry-after': '3' } }
        : { status: 200 };
    const notice = await recordNotice(app, business);
    const queue = app.get<Queue>(getQueueToken(NOTICES_QUEUE), { strict: false });
    const jobId = noticeDeliveryJobId(notice.id, endpoint.id);
    const job = await eventually(async () => ((await queue.getJobState(jobId)) === 'delayed' ? queue.getJob(jobId) : null));
    // What a BullMQ retry after an unexpected error would do: run the job again at once.
    await queue.remove(jobId);
    await queue.add('deliver-notice', job.data, { jobId, removeOnComplete: true, removeOnFail: true });

    await waitForStatus(notice.id, endpoint.id, 'DELIVERED');
    const [first, second] = receiver.withId(notice.id);
    expect(receiver.withId(notice.id)).toHaveLength(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(2_900);
  });
});

describe('notice retention', () => {
  it('purges notices older than 30 days with their deliveries and attempts, through the maintenance queue', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/old'), ['client.created']);
    const old = newId();
    const oldDelivery = newId();
    const payload = {
      id: old,
      type: 'client.created',
      createdAt: '2029-01-01T00:00:00.000Z',
      business: business.slug,
      data: { id: newId(), occurredAt: '2029-01-01T00:00:00.000Z' },
    };
    await db.query(
      `INSERT INTO notices (id, business_id, type, payload, created_at, relayed_at) VALUES ($1, $2, 'client.created', $3, now() - interval '31 days', now() - interval '31 days')`,
      [old, business.id, payload],
    );
    await db.query(
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts) VALUES ($1, $2, $3, $4, 'DELIVERED', 1)`,
      [oldDelivery, business.id, old, endpoint.id],
    );
    await db.query(
      `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms)
       SELECT $1, id, endpoint_id, 1, now() - interval '31 days', 200, 12 FROM notice_deliveries WHERE id = $2`,
      [newId(), oldDelivery],
    );
    const recent = await recordNotice(app, business);

    const queue = app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE), { strict: false });
    const events = new QueueEvents(MAINTENANCE_QUEUE, { connection: { url: config.REDIS_URL }, prefix: config.QUEUE_PREFIX });
    await events.waitUntilReady();
    const job = await queue.add(MaintenanceJob.PurgeNotices, {});
    const result = (await job.waitUntilFinished(events, 10_000)) as { purged: number };
    await events.close();

    expect(result.purged).toBeGreaterThanOrEqual(1);
    const left = await db.query<{ id: string }[]>('SELECT id FROM notices WHERE business_id = $1', [business.id]);
    expect(left.map((n) => n.id)).toEqual([recent.id]);
    expect(await db.query('SELECT 1 FROM notice_deliveries WHERE id = $1', [oldDelivery])).toEqual([]);
    expect(await db.query('SELECT 1 FROM delivery_attempts WHERE delivery_id = $1', [oldDelivery])).toEqual([]);
  });
});
