import type { INestApplicationContext } from '@nestjs/common';
import { DeliveryHistory, type DeliveryDetail } from '#core/notices/delivery-history/delivery-history.service.js';
import { NoticeReceiver, answer200, eventually } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

// A failed attempt's retry is an hour away: the test reads it while it waits.
const settings = { WEBHOOK_RETRY_SCHEDULE: '1h', NOTICE_SWEEP_EVERY_MS: '500' };

let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;
let history: DeliveryHistory;

beforeAll(async () => {
  await emptyNoticesQueue(testConfig(settings));
  ({ app, sql: db } = await startTestContext({ app: 'worker', config: settings }));
  receiver = await NoticeReceiver.start();
  history = app.get(DeliveryHistory);
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.respond = answer200;
});

async function settledDetail(businessId: string, noticeId: string, endpointId: string): Promise<DeliveryDetail> {
  const [{ id }] = await eventually(
    async () => {
      const rows = await db.query<{ id: string }[]>(
        `SELECT d.id FROM notice_deliveries d WHERE d.notice_id = $1 AND d.endpoint_id = $2
            AND EXISTS (SELECT FROM delivery_attempts a WHERE a.delivery_id = d.id)`,
        [noticeId, endpointId],
      );
      return rows.length === 1 ? rows : null;
    },
    15_000,
    'an attempt recorded',
  );
  return history.detail(businessId, id);
}

describe('what a delivery attempt records (worker, real receiver on loopback)', () => {
  it('keeps the headers and the body as sent, the status, the first 1 KB of a 5 KB answer and the duration', async () => {
    const answer = `${'é'.repeat(100)}${'x'.repeat(5 * 1024)}`;
    receiver.respond = () => ({ status: 200, body: answer });
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/recorded'), ['client.created']);
    const notice = await recordNotice(app, business);

    const detail = await settledDetail(business.id, notice.id, endpoint.id);
    const [received] = receiver.withId(notice.id);
    expect(detail).toMatchObject({
      outcome: 'delivered',
      attemptCount: 1,
      nextAttemptAt: null,
      sentAgain: null,
      eventType: 'client.created',
    });
    expect(detail.attempts).toHaveLength(1);
    const [attempt] = detail.attempts;
    expect(attempt).toMatchObject({ number: 1, schedule: 1, statusCode: 200, error: null });
    expect(attempt.durationMs).toEqual(expect.any(Number));
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    // 100 two-byte characters, then 824 bytes of the rest: 1024 bytes of a 5 KB answer.
    expect(attempt.responseExcerpt).toBe(answer.slice(0, 100 + 824));
    expect(Buffer.byteLength(attempt.responseExcerpt!)).toBe(1024);
    // What the receiver got, byte for byte and header for header.
    expect(attempt.request?.url).toBe(endpoint.url);
    expect(attempt.request?.body).toBe(received.body);
    for (const [name, value] of attempt.request!.headers) expect(received.headers[name]).toBe(value);
    expect(attempt.request!.headers.map(([name]) => name)).toEqual([
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'x-service-signature',
    ]);
  });

  it('says why an attempt failed in words, and when the retry comes', async () => {
    const closed = await NoticeReceiver.start();
    const port = closed.port;
    await closed.close();
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, `http://127.0.0.1:${port}/gone`, ['client.created']);
    const notice = await recordNotice(app, business);

    const detail = await settledDetail(business.id, notice.id, endpoint.id);
    expect(detail.outcome).toBe('retrying');
    expect(detail.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(detail.attempts).toEqual([
      expect.objectContaining({ statusCode: null, responseExcerpt: null, error: 'The receiver refused the connection (ECONNREFUSED)' }),
    ]);
    expect(detail.attempts[0].request?.headers.find(([name]) => name === 'webhook-id')?.[1]).toBe(notice.id);
  });

  it("names a refusing answer's status and keeps its words", async () => {
    receiver.respond = () => ({ status: 500, body: 'database on fire' });
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/fails'), ['client.created']);
    const notice = await recordNotice(app, business);

    const detail = await settledDetail(business.id, notice.id, endpoint.id);
    expect(detail.attempts[0]).toMatchObject({
      statusCode: 500,
      responseExcerpt: 'database on fire',
      error: 'The receiver answered HTTP 500',
    });
  });

  it("rebuilds a sandbox's body with its test mode, as sent", async () => {
    const live = await createBusiness();
    const sandbox = await createBusiness();
    await db.query('UPDATE businesses SET live_business_id = $1 WHERE id = $2', [live.id, sandbox.id]);
    const endpoint = await createEndpoint(app, sandbox, receiver.url('/sandbox'), ['client.created']);
    const notice = await recordNotice(app, sandbox);

    const detail = await settledDetail(sandbox.id, notice.id, endpoint.id);
    const [received] = receiver.withId(notice.id);
    expect(JSON.parse(received.body)).toMatchObject({ mode: 'test' });
    expect(detail.attempts[0].request?.body).toBe(received.body);
    // The live business does not see its sandbox's delivery, nor the other way round.
    await expect(history.detail(live.id, detail.deliveryId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
