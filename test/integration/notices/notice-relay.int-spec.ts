import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { NoticesRepository, type ClaimedNotice } from '#core/notices/outbox/notices.repository.js';
import { NoticeRelayService } from '#core/notices/delivery/notice-relay.service.js';
import { NoticeReceiver } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, recordNotice } from '../../utils/notice-setup.js';
import { startTestContext, type TestSql } from '../../utils/test-context.js';

/**
 * The relay's transaction on its own (no worker runs here, so nothing else relays): claimed with
 * FOR UPDATE SKIP LOCKED, so relays running side by side never take the same notice twice.
 */
let app: INestApplicationContext;
let db: TestSql;
let receiver: NoticeReceiver;

beforeAll(async () => {
  ({ app, sql: db } = await startTestContext({ app: 'admin' }));
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

async function relayEverything(
  relays: number,
  batch: number,
): Promise<{ claimed: ClaimedNotice[]; deliveries: { noticeId: string; endpointId: string }[] }> {
  const notices = app.get(NoticesRepository);
  const claimed: ClaimedNotice[] = [];
  const original = notices.claimUnrelayed.bind(notices);
  const spy = jest.spyOn(notices, 'claimUnrelayed').mockImplementation(async (limit) => {
    const rows = await original(limit);
    claimed.push(...rows);
    // Hold the locks a moment, so that the relays really overlap.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return rows;
  });
  const deliveries: { noticeId: string; endpointId: string }[] = [];
  try {
    const relay = app.get(NoticeRelayService);
    await Promise.all(
      Array.from({ length: relays }, async () => {
        for (;;) {
          const result = await relay.relayBatch(batch);
          deliveries.push(...result.deliveries);
          if (result.notices === 0) return;
        }
      }),
    );
  } finally {
    spy.mockRestore();
  }
  return { claimed, deliveries };
}

describe('notice relay', () => {
  it('relays each notice exactly once across concurrent relays, one delivery per subscribed enabled endpoint', async () => {
    const business = await createBusiness();
    const a = await createEndpoint(app, business, receiver.url('/a'), ['client.created', 'sale.created']);
    const b = await createEndpoint(app, business, receiver.url('/b'), ['client.created']);
    const disabled = await createEndpoint(app, business, receiver.url('/off'), ['client.created']);
    await db.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [disabled.id]);
    const clientNotices = await Promise.all(Array.from({ length: 30 }, () => recordNotice(app, business, 'client.created')));
    const saleNotices = await Promise.all(Array.from({ length: 10 }, () => recordNotice(app, business, 'sale.created')));
    const paymentNotice = await recordNotice(app, business, 'payment.received');

    const { claimed, deliveries } = await relayEverything(4, 7);

    const mine = new Set([...clientNotices, ...saleNotices, paymentNotice].map((n) => n.id));
    const claimedMine = claimed.filter((n) => mine.has(n.id)).map((n) => n.id);
    expect(claimedMine.length).toBe(mine.size);
    expect(new Set(claimedMine).size).toBe(mine.size);

    const keys = deliveries.filter((d) => mine.has(d.noticeId)).map((d) => `${d.noticeId}.${d.endpointId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const expected = [
      ...clientNotices.flatMap((n) => [`${n.id}.${a.id}`, `${n.id}.${b.id}`]),
      ...saleNotices.map((n) => `${n.id}.${a.id}`),
    ];
    expect(keys.sort()).toEqual(expected.sort());

    const unrelayed = await db.query<{ n: string }[]>('SELECT count(*) AS n FROM notices WHERE business_id = $1 AND relayed_at IS NULL', [
      business.id,
    ]);
    expect(Number(unrelayed[0].n)).toBe(0);
    const rows = await db.query<{ status: string; attempts: number; due: boolean }[]>(
      'SELECT status, attempts, next_attempt_at <= now() AS due FROM notice_deliveries WHERE business_id = $1',
      [business.id],
    );
    expect(rows).toHaveLength(expected.length);
    expect(rows.every((r) => r.status === 'PENDING' && r.attempts === 0 && r.due)).toBe(true);
  });

  it('rolls the whole batch back when it fails: nothing relayed, nothing half-made', async () => {
    const business = await createBusiness();
    await createEndpoint(app, business, receiver.url('/a'), ['client.created']);
    const notice = await recordNotice(app, business);
    const notices = app.get(NoticesRepository);
    const spy = jest.spyOn(notices, 'markRelayed').mockRejectedValueOnce(new Error('connection lost'));
    try {
      await expect(app.get(NoticeRelayService).relayBatch(1_000)).rejects.toThrow('connection lost');
    } finally {
      spy.mockRestore();
    }
    const [row] = await db.query<{ relayed_at: Date | null }[]>('SELECT relayed_at FROM notices WHERE id = $1', [notice.id]);
    expect(row.relayed_at).toBeNull();
    expect(await db.query('SELECT 1 FROM notice_deliveries WHERE notice_id = $1', [notice.id])).toEqual([]);

    await relayEverything(1, 1_000);
    expect(await db.query('SELECT 1 FROM notice_deliveries WHERE notice_id = $1', [notice.id])).toHaveLength(1);
  });
});
