import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DeliveryHistory } from '#core/notices/delivery-history/delivery-history.service.js';
import { EventsModule } from '#core/notices/event-log/events.module.js';
import { EventsService } from '#core/notices/event-log/events.service.js';
import { newId } from '#database/new-id.js';
import { createBusiness, createEndpoint, recordNotice, type TestBusiness } from '../../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

// No worker runs here: each delivery's state is written as the worker would leave it.
let app: INestApplicationContext;
let db: TestSql;
let history: DeliveryHistory;

beforeAll(async () => {
  ({ app, sql: db } = await startTestContext({ app: 'admin', imports: [EventsModule] }));
  history = app.get(DeliveryHistory);
});
afterAll(() => app.close());

interface Seeded {
  deliveryId: string;
  noticeId: string;
}

async function seedDelivery(
  business: TestBusiness,
  endpointId: string,
  state: { status: string; attempts: number; nextAttemptAt: string | null; type?: 'client.created' | 'sale.created'; createdAt: string },
  attempts: { attempt: number; statusCode: number | null; at: string }[] = [],
): Promise<Seeded> {
  const notice = await recordNotice(app, business, state.type ?? 'client.created');
  const deliveryId = newId();
  await db.query(
    `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + $7::interval, now() + $8::interval, now())`,
    [deliveryId, business.id, notice.id, endpointId, state.status, state.attempts, state.nextAttemptAt, state.createdAt],
  );
  for (const attempt of attempts) {
    await db.query(
      `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error, failure)
       VALUES ($1, $2, $3, $4, now() + $5::interval, $6, 12, $7, $8)`,
      [
        newId(),
        deliveryId,
        endpointId,
        attempt.attempt,
        attempt.at,
        attempt.statusCode,
        attempt.statusCode === 200 ? null : 'HTTP 500',
        attempt.statusCode === 200 ? null : 'HTTP_STATUS',
      ],
    );
  }
  return { deliveryId, noticeId: notice.id };
}

describe('DeliveryHistory (real PostgreSQL)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  let endpointId: string;
  let secondEndpointId: string;
  let delivered: Seeded;
  let retrying: Seeded;
  let overdue: Seeded;
  let failed: Seeded;
  let pending: Seeded;
  let sentAgain: Seeded;

  beforeAll(async () => {
    business = await createBusiness();
    other = await createBusiness();
    endpointId = (await createEndpoint(app, business, 'http://127.0.0.1:9/a', ['client.created', 'sale.created'])).id;
    secondEndpointId = (await createEndpoint(app, business, 'http://127.0.0.1:9/b', ['client.created'])).id;
    const otherEndpoint = (await createEndpoint(app, other, 'http://127.0.0.1:9/other', ['client.created'])).id;
    delivered = await seedDelivery(business, endpointId, { status: 'DELIVERED', attempts: 1, nextAttemptAt: null, createdAt: '-6 min' }, [
      { attempt: 1, statusCode: 200, at: '-6 min' },
    ]);
    retrying = await seedDelivery(
      business,
      endpointId,
      { status: 'PENDING', attempts: 1, nextAttemptAt: '1 hour', type: 'sale.created', createdAt: '-5 min' },
      [{ attempt: 1, statusCode: 500, at: '-5 min' }],
    );
    overdue = await seedDelivery(business, endpointId, { status: 'PENDING', attempts: 1, nextAttemptAt: '-1 min', createdAt: '-4 min' }, [
      { attempt: 1, statusCode: 500, at: '-4 min' },
    ]);
    failed = await seedDelivery(business, secondEndpointId, { status: 'FAILED', attempts: 2, nextAttemptAt: null, createdAt: '-3 min' }, [
      { attempt: 1, statusCode: 500, at: '-3 min' },
      { attempt: 2, statusCode: 500, at: '-2 min' },
    ]);
    pending = await seedDelivery(business, secondEndpointId, {
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: '1 day',
      createdAt: '-2 min',
    });
    // Delivered once, then sent again and failed once on its new schedule.
    sentAgain = await seedDelivery(business, endpointId, { status: 'PENDING', attempts: 1, nextAttemptAt: '1 hour', createdAt: '-1 min' }, [
      { attempt: 1, statusCode: 200, at: '-90 s' },
      { attempt: 1, statusCode: 500, at: '-30 s' },
    ]);
    await seedDelivery(other, otherEndpoint, { status: 'DELIVERED', attempts: 1, nextAttemptAt: null, createdAt: '-1 min' }, [
      { attempt: 1, statusCode: 200, at: '-1 min' },
    ]);
  });

  it("lists the business's deliveries newest first, and only its own", async () => {
    const page = await history.list(business.id, {}, { limit: 50 });
    expect(page.items.map((item) => item.deliveryId)).toEqual(
      [sentAgain, pending, failed, overdue, retrying, delivered].map((seeded) => seeded.deliveryId),
    );
    expect(page.nextCursor).toBeNull();
    expect(page.items.find((item) => item.deliveryId === retrying.deliveryId)).toMatchObject({
      noticeId: retrying.noticeId,
      eventType: 'sale.created',
      endpoint: { id: endpointId, url: 'http://127.0.0.1:9/a' },
      outcome: 'retrying',
      attemptCount: 1,
      lastAttempt: { statusCode: 500, durationMs: 12 },
      sentAgain: null,
      canSendAgain: true,
    });
  });

  it('shows a retry time only while it is ahead', async () => {
    const { items } = await history.list(business.id, { outcome: 'retrying' }, { limit: 50 });
    const byId = new Map(items.map((item) => [item.deliveryId, item]));
    expect(byId.get(retrying.deliveryId)!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(byId.get(overdue.deliveryId)).toMatchObject({ outcome: 'retrying', nextAttemptAt: null });
  });

  it('filters by outcome, event type and endpoint', async () => {
    const ids = async (filters: Parameters<DeliveryHistory['list']>[1]) =>
      (await history.list(business.id, filters, { limit: 50 })).items.map((item) => item.deliveryId);
    expect(await ids({ outcome: 'delivered' })).toEqual([delivered.deliveryId]);
    expect(await ids({ outcome: 'failed' })).toEqual([failed.deliveryId]);
    expect(await ids({ outcome: 'pending' })).toEqual([pending.deliveryId]);
    expect(await ids({ outcome: 'retrying' })).toEqual([sentAgain.deliveryId, overdue.deliveryId, retrying.deliveryId]);
    expect(await ids({ eventType: 'sale.created' })).toEqual([retrying.deliveryId]);
    expect(await ids({ endpointId: secondEndpointId })).toEqual([pending.deliveryId, failed.deliveryId]);
    expect(await ids({ endpointId: secondEndpointId, outcome: 'failed' })).toEqual([failed.deliveryId]);
  });

  it('pages with a cursor bound to its filters', async () => {
    const first = await history.list(business.id, { endpointId }, { limit: 2 });
    expect(first.items.map((item) => item.deliveryId)).toEqual([sentAgain.deliveryId, overdue.deliveryId]);
    const second = await history.list(business.id, { endpointId }, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((item) => item.deliveryId)).toEqual([retrying.deliveryId, delivered.deliveryId]);
    expect(second.nextCursor).toBeNull();
    await expect(history.list(business.id, {}, { limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'CURSOR_INVALID' });
    await expect(history.list(other.id, { endpointId }, { limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({
      code: 'CURSOR_INVALID',
    });
  });

  it('refuses filters it does not know', async () => {
    await expect(history.list(business.id, { outcome: 'lost' as 'failed', endpointId: 'nope' }, { limit: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('gives a delivery with its attempts beneath, numbered by schedule, and says it was sent again', async () => {
    const detail = await history.detail(business.id, sentAgain.deliveryId);
    expect(detail).toMatchObject({ outcome: 'retrying', attemptCount: 2, sentAgain: { schedule: 2 } });
    expect(detail.attempts).toEqual([
      expect.objectContaining({ number: 1, schedule: 1, statusCode: 200, error: null, request: null }),
      expect.objectContaining({ number: 1, schedule: 2, statusCode: 500, error: 'The receiver answered HTTP 500', durationMs: 12 }),
    ]);
    const failedDetail = await history.detail(business.id, failed.deliveryId);
    expect(failedDetail.attempts.map((attempt) => [attempt.schedule, attempt.number])).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it("does not find another business's delivery, nor one that is not an id", async () => {
    await expect(history.detail(other.id, delivered.deliveryId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(history.detail(business.id, 'not-an-id')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await history.list(other.id, {}, { limit: 50 })).items).toHaveLength(1);
  });
});

describe('the event log filtered by resource', () => {
  it("lists only the notices about that resource, with their deliveries' outcomes", async () => {
    const business = await createBusiness();
    const endpointId = (await createEndpoint(app, business, 'http://127.0.0.1:9/e', ['client.created'])).id;
    const about = await recordNotice(app, business);
    await recordNotice(app, business);
    await db.query(
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, delivered_at)
       VALUES ($1, $2, $3, $4, 'DELIVERED', 1, NULL, now())`,
      [newId(), business.id, about.id, endpointId],
    );
    const events = app.get(EventsService);
    const page = await events.list(business.id, 'live', { limit: 10, resourceId: about.data.id });
    expect(page.items).toEqual([expect.objectContaining({ id: about.id, deliveries: { pending: 0, delivered: 1, failed: 0 } })]);
    expect((await events.list(business.id, 'live', { limit: 10, resourceId: randomUUID() })).items).toEqual([]);
    expect((await events.list(business.id, 'live', { limit: 10 })).items).toHaveLength(2);
  });
});
