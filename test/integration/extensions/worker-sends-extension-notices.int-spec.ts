import type { INestApplicationContext } from '@nestjs/common';
import { NoticeReceiver, answer200, verifyNotice } from '../../utils/notice-receiver.js';
import { createBusiness, createEndpoint, emptyNoticesQueue, recordNotice } from '../../utils/notice-setup.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext } from '../../utils/test-context.js';

/**
 * A worker whose EXTENSIONS names the waitlist sends its notices as the core's (the API that
 * enables it records them): the worker hands the enabled extensions to the libs at start as the
 * API does (WorkerModule, extensions/index.ts).
 */
const settings = { EXTENSIONS: 'waitlist', NOTICE_SWEEP_EVERY_MS: '500' };

let worker: INestApplicationContext;
let receiver: NoticeReceiver;

beforeAll(async () => {
  await emptyNoticesQueue(testConfig(settings));
  ({ app: worker } = await startTestContext({ app: 'worker', config: settings }));
  receiver = await NoticeReceiver.start();
  receiver.respond = answer200;
});
afterAll(async () => {
  await worker.close();
  await receiver.close();
});

describe('a worker that enables an extension', () => {
  it('delivers its notice types to the endpoints subscribed to them, signed as every notice', async () => {
    const business = await createBusiness();
    const endpoint = await createEndpoint(worker, business, receiver.url('/waitlist'), ['waitlist.joined']);
    const notice = await recordNotice(worker, business, 'waitlist.joined');

    await receiver.waitFor(() => receiver.withId(notice.id).length === 1);
    const [received] = receiver.withId(notice.id);
    expect(received.path).toBe('/waitlist');
    expect(verifyNotice(endpoint.secret, received)).toEqual(notice);
  });
});
