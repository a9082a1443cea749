import type { INestApplicationContext } from '@nestjs/common';
import { NOTICE_SEND_LIMITS, NOTICE_SEND_LIMITS_D9 } from '#core/notices/delivery/notice-sender.js';
import { NoticeReceiver } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext } from '../../utils/test-context.js';

/**
 * Fair delivery (docs/design-record.md#d17): a receiver that never answers holds at most
 * WEBHOOK_ENDPOINT_CONCURRENCY of the worker's delivery slots, so another business's notices all
 * arrive while it is still holding its requests. The sender's time-out is lifted for this test,
 * so the tarpit holds every request it gets until the end: nothing here depends on how fast the
 * machine is. (Before the cap, the tarpit's first 20 requests filled the worker and the healthy
 * receiver waited for them.)
 */
const CAP = 4;
const NOTICES = 200;
const settings = { WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP) };

let worker: INestApplicationContext;
let tarpit: NoticeReceiver;
let healthy: NoticeReceiver;

beforeAll(async () => {
  await emptyNoticesQueue(testConfig(settings));
  tarpit = await NoticeReceiver.start(() => 'hang');
  healthy = await NoticeReceiver.start();
  ({ app: worker } = await startTestContext({
    app: 'worker',
    config: settings,
    providers: [[NOTICE_SEND_LIMITS, { ...NOTICE_SEND_LIMITS_D9, totalTimeoutMs: 30 * 60_000 }]],
  }));
});
afterAll(async () => {
  await tarpit.close();
  await worker.close();
  await healthy.close();
});

describe('fair delivery', () => {
  it('delivers every notice of a healthy endpoint while a tarpit holds its requests, never more than the cap of them', async () => {
    const slow = await createBusiness();
    const fine = await createBusiness();
    await createEndpoint(worker, slow, tarpit.url('/tarpit'), ['client.created']);
    await createEndpoint(worker, fine, healthy.url('/healthy'), ['client.created']);
    for (let i = 0; i < NOTICES; i += 1) {
      await recordNotice(worker, slow);
      await recordNotice(worker, fine);
    }

    await healthy.waitFor((received) => received.length >= NOTICES, 180_000);
    expect(healthy.received).toHaveLength(NOTICES);
    // Every slot the tarpit was given is still held (its requests all still open), and no more were given.
    await tarpit.waitFor((received) => received.length >= CAP);
    expect(tarpit.holding).toBe(CAP);
    expect(tarpit.mostHeld).toBe(CAP);
    expect(tarpit.received).toHaveLength(CAP);
  }, 240_000);
});
