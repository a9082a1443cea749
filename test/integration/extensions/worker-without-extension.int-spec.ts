import type { INestApplicationContext } from '@nestjs/common';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { NoticeDeliveryService } from '#core/notices/delivery/notice-delivery.service.js';
import { newId } from '#database/new-id.js';
import { NoticeReceiver, answer200 } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint } from '../../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * A process whose EXTENSIONS does not name the waitlist (here none, the default) sends none of its
 * notices: one recorded by a process that enables it (written here as that process would) fails
 * its delivery with the reason, unsent. Hence the same EXTENSIONS for every process of a
 * deployment (docs/operations-interface.md).
 */
let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;

beforeAll(async () => {
  ({ app, sql: db } = await startTestContext({ app: 'admin', config: { WEBHOOK_RETRY_SCHEDULE: '1h' } }));
  receiver = await NoticeReceiver.start();
  receiver.respond = answer200;
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

describe('a process that does not enable an extension', () => {
  it("does not send the extension's notices: each is an unsent attempt with its reason", async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(app, business, receiver.url('/none'), ['client.created']);
    // buildNoticeBody refuses the type in this process: the body as the other process built it.
    const notice = buildNoticeBody({ type: 'client.created', businessSlug: business.slug, subjectId: newId(), occurredAt: new Date() });
    const payload = { ...notice, type: 'waitlist.joined' };
    await db.query(`INSERT INTO notices (id, business_id, type, payload, relayed_at) VALUES ($1, $2, $3, $4, now())`, [
      notice.id,
      business.id,
      payload.type,
      payload,
    ]);
    await db.query(
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'PENDING', 0, now())`,
      [newId(), business.id, notice.id, endpoint.id],
    );

    const deliveries = app.get(NoticeDeliveryService);
    const delivery = await deliveries.find({ businessId: business.id, noticeId: notice.id, endpointId: endpoint.id });
    const reason = 'not sent: Not a D9 notice body: type waitlist.joined is not a notice type.';
    expect(await deliveries.attempt(delivery!)).toMatchObject({ error: reason });
    expect(receiver.withId(notice.id)).toEqual([]);
  });
});
