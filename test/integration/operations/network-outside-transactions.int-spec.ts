import { Database, NetworkWhileConnectionHeldError, refuseInsideTransaction } from '#database/database.js';
import { NoticeSender } from '#core/notices/delivery/notice-sender.js';
import { WebhookResolver } from '#core/notices/endpoints/webhook-resolver.js';
import { NoticeReceiver } from '../../utils/notice-receiver.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The structural half of docs/design-record.md#d24: the helpers that wait on a stranger's network
 * (name resolution, the notice sender) refuse to run inside a transaction, whatever calls them, so
 * no code path can hold a pooled connection while a stranger takes its time to answer.
 */
let context: TestContext;
let database: Database;
let receiver: NoticeReceiver;

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
  database = context.app.get(Database);
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await receiver.close();
  await context.app.close();
});

const notice = () => ({
  tenantId: 'guard-test',
  url: receiver.url(),
  id: '01944c2e-5c01-7e2a-b3c4-d5e6f7a8b9c0',
  timestamp: 1_893_920_400,
  body: '{}',
  signature: 'v1,AAAA',
});

describe('network calls and transactions', () => {
  it('refuses inside a transaction, at any depth, and allows outside and after it', async () => {
    expect(() => refuseInsideTransaction('A test call')).not.toThrow();
    await expect(
      database.transactional(async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await Promise.resolve().then(() => refuseInsideTransaction('A test call'));
      }),
    ).rejects.toBeInstanceOf(NetworkWhileConnectionHeldError);
    await database.transactional(() => Promise.resolve());
    expect(() => refuseInsideTransaction('A test call')).not.toThrow();
  });

  it('the notice sender and the resolver send nothing from inside a transaction, and work outside', async () => {
    const sender = context.app.get(NoticeSender);
    const resolver = context.app.get(WebhookResolver);
    await expect(database.transactional(() => sender.send(notice()))).rejects.toBeInstanceOf(NetworkWhileConnectionHeldError);
    await expect(database.transactional(() => resolver.resolve('guard-test', 'localhost', 1_000))).rejects.toBeInstanceOf(
      NetworkWhileConnectionHeldError,
    );
    expect(receiver.received).toHaveLength(0);

    const sent = await sender.send(notice());
    expect(sent).toMatchObject({ delivered: true, statusCode: 200 });
    expect(receiver.received).toHaveLength(1);
  });
});
