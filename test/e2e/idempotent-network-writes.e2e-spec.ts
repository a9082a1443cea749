import { randomUUID } from 'node:crypto';
import { E2eApi } from '../utils/e2e-api.js';
import { NoticeReceiver, eventually } from '../utils/notice-receiver.js';
import { testSql, type TestSql } from '../utils/test-context.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';

/**
 * Writes that wait on the network (a test ping, an endpoint's address check) run outside a
 * transaction under a claimed Idempotency-Key (docs/design-record.md#d24): they stay idempotent,
 * a duplicate in flight is told to wait, and nothing of the claim is left behind.
 */
let api: E2eApi;
let db: TestSql;
let receiver: NoticeReceiver;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  receiver = await NoticeReceiver.start();
  tenant = await createTenant();
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const post = (path: string, key: string, body?: unknown) => api.post(path, { key: tenant.key, body, headers: { 'Idempotency-Key': key } });
const claims = async () => Number((await db.query<{ n: string }[]>('SELECT count(*) AS n FROM idempotency_claims'))[0].n);

describe('idempotent writes that wait on the network', () => {
  it('replays a test ping and an endpoint creation without sending or creating again', async () => {
    const createKey = randomUUID();
    const body = { url: receiver.url(`/once-${randomUUID()}`), events: ['appointment.created'] };
    const created = await post('/webhook-endpoints', createKey, body);
    expect(created.status).toBe(201);
    const again = await post('/webhook-endpoints', createKey, body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(created.body);
    expect((await api.get('/webhook-endpoints', { key: tenant.key })).body.data).toHaveLength(1);

    const pingKey = randomUUID();
    const ping = await post(`/webhook-endpoints/${created.body.id}/test`, pingKey);
    const replay = await post(`/webhook-endpoints/${created.body.id}/test`, pingKey);
    expect(ping.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(ping.text);
    expect(receiver.received).toHaveLength(1);

    // The same key for another request is refused; no claim stays behind.
    const reused = await post('/webhook-endpoints', pingKey, body);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await claims()).toBe(0);
  });

  it('tells a duplicate that comes while the first is waiting on the network to retry, and then replays', async () => {
    const path = `/slow-${randomUUID()}`;
    const created = await post('/webhook-endpoints', randomUUID(), { url: receiver.url(path), events: ['appointment.created'] });
    const answer = receiver.respond;
    receiver.respond = (notice, index) => (notice.path === path ? 'hang' : answer(notice, index));
    const key = randomUUID();
    const first = post(`/webhook-endpoints/${created.body.id}/test`, key);
    await eventually(() => Promise.resolve(receiver.holding === 1), 10_000, 'the first ping at the receiver');

    const duplicate = await post(`/webhook-endpoints/${created.body.id}/test`, key);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(Number(duplicate.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await claims()).toBe(1);

    // The receiver goes away: the first answers with that outcome, which the duplicate then replays.
    receiver.respond = answer;
    await receiver.close();
    receiver = await NoticeReceiver.start();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(answered.body.delivered).toBe(false);
    const replay = await post(`/webhook-endpoints/${created.body.id}/test`, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(answered.text);
    expect(await claims()).toBe(0);
  });
});
