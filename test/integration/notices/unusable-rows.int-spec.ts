import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import type { DeliveryRef } from '#core/notices/delivery/notice-deliveries.repository.js';
import { NoticeDeliveryService } from '#core/notices/delivery/notice-delivery.service.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { newId } from '#database/new-id.js';
import { NoticeReceiver, answer200, verifyNotice } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, type TestBusiness } from '../../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * A row the worker cannot use fails only its own delivery (docs/design-record.md#d24), through the
 * delivery service on the test database (no queue: each attempt is made by the test): a secret
 * that does not open is a failed attempt with the reason, on the retry schedule, while the
 * lookup of the deliveries beside it goes on; a rotation gets past it; a delivery whose endpoint
 * is deleted during its attempt is dropped, not an error.
 */
const settings = { WEBHOOK_RETRY_SCHEDULE: '1h,1h' };

let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;
let deliveries: NoticeDeliveryService;

beforeAll(async () => {
  ({ app, sql: db } = await startTestContext({ app: 'admin', config: settings }));
  deliveries = app.get(NoticeDeliveryService);
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.respond = answer200;
});

/** A relayed notice of the business with a PENDING delivery to each endpoint, due now. */
async function pendingNotice(business: TestBusiness, endpointIds: string[]): Promise<DeliveryRef[]> {
  const notice = buildNoticeBody({ type: 'client.created', businessSlug: business.slug, subjectId: newId(), occurredAt: new Date() });
  await db.query(`INSERT INTO notices (id, business_id, type, payload, relayed_at) VALUES ($1, $2, $3, $4, now())`, [
    notice.id,
    business.id,
    notice.type,
    notice,
  ]);
  for (const endpointId of endpointIds) {
    await db.query(
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'PENDING', 0, now())`,
      [newId(), business.id, notice.id, endpointId],
    );
  }
  return endpointIds.map((endpointId) => ({ businessId: business.id, noticeId: notice.id, endpointId }));
}

/** Seals the endpoint's secret into something that does not open: the right key id, a damaged value. */
async function damageSecret(endpointId: string): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [
    endpointId,
    `v1:test1:${randomBytes(60).toString('base64url')}`,
  ]);
}

async function deliveryRow(ref: DeliveryRef): Promise<{ id: string; status: string; attempts: number; next_attempt_at: Date | null }> {
  const [row] = await db.query<{ id: string; status: string; attempts: number; next_attempt_at: Date | null }[]>(
    'SELECT id, status, attempts, next_attempt_at FROM notice_deliveries WHERE notice_id = $1 AND endpoint_id = $2',
    [ref.noticeId, ref.endpointId],
  );
  return row;
}

async function attemptErrors(ref: DeliveryRef): Promise<(string | null)[]> {
  const rows = await db.query<{ error: string | null }[]>(
    `SELECT a.error FROM delivery_attempts a JOIN notice_deliveries d ON d.id = a.delivery_id
      WHERE d.notice_id = $1 AND d.endpoint_id = $2 ORDER BY a.attempt`,
    [ref.noticeId, ref.endpointId],
  );
  return rows.map((row) => row.error);
}

/** One run of the delivery's job, as the worker makes it once its slots are taken. */
async function attemptOnce(ref: DeliveryRef) {
  const delivery = await deliveries.find(ref);
  if (!delivery) throw new Error('the delivery is gone');
  return deliveries.attempt(delivery);
}

const UNUSABLE = "not sent: the endpoint's signing secret cannot be opened by the service; rotating the secret replaces it";

describe('a row the worker cannot use', () => {
  it('a secret that cannot be opened is a failed attempt with the reason, on the retry schedule, and fails nothing beside it', async () => {
    const business = await createBusiness();
    const broken = await createEndpoint(app, business, receiver.url('/broken'), ['client.created']);
    const fine = await createEndpoint(app, business, receiver.url('/fine'), ['client.created']);
    await damageSecret(broken.id);
    const [toBroken, toFine] = await pendingNotice(business, [broken.id, fine.id]);

    // Looked up together, in one batch: the damaged secret is no longer opened by the lookup.
    const [brokenDelivery, fineDelivery] = await Promise.all([deliveries.find(toBroken), deliveries.find(toFine)]);
    expect(brokenDelivery?.endpointId).toBe(broken.id);
    expect(await deliveries.attempt(fineDelivery!)).toEqual({ kind: 'delivered', statusCode: 200 });
    expect(verifyNotice(fine.secret, receiver.withId(toFine.noticeId)[0])).toMatchObject({ id: toFine.noticeId });

    expect(await deliveries.attempt(brokenDelivery!)).toMatchObject({ kind: 'retry', error: UNUSABLE });
    expect(await deliveryRow(toBroken)).toMatchObject({ status: 'PENDING', attempts: 1, next_attempt_at: expect.any(Date) });
    expect(await attemptErrors(toBroken)).toEqual([UNUSABLE]);

    // The schedule (two retries) runs out like any other failure's.
    expect(await attemptOnce(toBroken)).toMatchObject({ kind: 'retry' });
    expect(await attemptOnce(toBroken)).toEqual({ kind: 'failed', error: UNUSABLE });
    expect(await deliveryRow(toBroken)).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect(await attemptErrors(toBroken)).toEqual([UNUSABLE, UNUSABLE, UNUSABLE]);
    expect(receiver.received.filter((notice) => notice.path === '/broken')).toEqual([]);
  });

  it('a rotation gets past it: the new secret signs alone, the one that does not open is left out', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/rotated'), ['client.created']);
    await damageSecret(endpoint.id);
    const [ref] = await pendingNotice(business, [endpoint.id]);
    expect(await attemptOnce(ref)).toMatchObject({ kind: 'retry', error: UNUSABLE });

    const rotated = await app.get(WebhookEndpointsService).rotateSecret(business.id, endpoint.id);
    expect(rotated.previousSecret).toBeNull();
    expect(await attemptOnce(ref)).toEqual({ kind: 'delivered', statusCode: 200 });
    const [arrived] = receiver.withId(ref.noticeId);
    expect(String(arrived.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyNotice(rotated.secret, arrived)).toMatchObject({ id: ref.noticeId });
  });

  it('a delivery whose endpoint is deleted during its attempt is dropped: nothing recorded, nothing thrown', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/deleted'), ['client.created']);
    const [ref] = await pendingNotice(business, [endpoint.id]);
    receiver.respond = () => 'hang';

    const attempt = attemptOnce(ref);
    await receiver.waitFor(() => receiver.withId(ref.noticeId).length === 1);
    await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
    receiver.release({ status: 500 });

    expect(await attempt).toEqual({ kind: 'skipped', reason: 'the delivery no longer exists' });
    expect(await deliveryRow(ref)).toBeUndefined();
  });
});
