import { randomUUID } from 'node:crypto';
import { NOTICE_SEND_LIMITS, NOTICE_SEND_LIMITS_D9 } from '#core/notices/delivery/notice-sender.js';
import { LOOKUPS_PER_BUSINESS } from '#core/notices/endpoints/webhook-resolver.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { FakeDnsServer } from '../utils/fake-dns-server.js';
import { NoticeReceiver, eventually } from '../utils/notice-receiver.js';
import { testConfig } from '../utils/test-config.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';

/**
 * Name resolution (docs/design-record.md#d24): a hostile business registers endpoints whose names
 * its name server never answers, through its live and its sandbox's test key. At most two of its
 * lookups run at once, the rest wait for its own turn, and the victim's names resolve (its test
 * ping is delivered, its endpoint registered) while the hostile lookups hang.
 */
let api: E2eApi;
let dns: FakeDnsServer;
let receiver: NoticeReceiver;

beforeAll(async () => {
  receiver = await NoticeReceiver.start();
  dns = await FakeDnsServer.start({ 'hooks.victim.test': '127.0.0.1' }, (name) => name.endsWith('.hostile.test'));
  // Lookups wait up to 20 s here, so that the hostile ones are still waiting when the victim's run.
  const limits = { ...NOTICE_SEND_LIMITS_D9, connectTimeoutMs: 20_000, totalTimeoutMs: 25_000 };
  api = await E2eApi.start(testConfig({ WEBHOOK_DNS_SERVERS: dns.address }), [[NOTICE_SEND_LIMITS, limits]]);
});
afterAll(async () => {
  dns.release();
  await api.close();
  await dns.close();
  await receiver.close();
});

const business = () => createTenantWithSandbox();

const createEndpoint = (key: string, url: string) =>
  api.post('/webhook-endpoints', { key, body: { url, events: ['appointment.created'] }, headers: { 'Idempotency-Key': randomUUID() } });

describe('name resolution beside a hostile business', () => {
  it("resolves the victim's names while the hostile business's lookups hang, two at a time", async () => {
    const hostile = await business();
    const victim = await business();

    const hostileCreates: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 3; i++) {
      hostileCreates.push(createEndpoint(hostile.live, `http://live-${i}.hostile.test/hook`));
      hostileCreates.push(createEndpoint(hostile.test, `http://sandbox-${i}.hostile.test/hook`));
    }
    await eventually(() => Promise.resolve(dns.holding.length === LOOKUPS_PER_BUSINESS), 10_000, 'two hostile lookups held');

    const victimUrl = `http://hooks.victim.test:${receiver.port}/hook`;
    const registered = await createEndpoint(victim.live, victimUrl);
    expect(registered.status).toBe(201);
    const ping = await api.post(`/webhook-endpoints/${registered.body.id}/test`, {
      key: victim.live,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ delivered: true, statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);

    // The hostile business still has only its two lookups out: the other four wait their turn.
    expect(dns.holding).toHaveLength(LOOKUPS_PER_BUSINESS);
    expect(new Set(dns.asked.filter((name) => name.endsWith('.hostile.test'))).size).toBe(LOOKUPS_PER_BUSINESS);

    // Once its name server answers (the names do not exist), each of its requests is answered:
    // a name that does not resolve yet is accepted at registration (every send checks it again).
    dns.release();
    const answered = await Promise.all(hostileCreates);
    expect(answered.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(dns.asked.filter((name) => name.endsWith('.hostile.test'))).size).toBe(6);
  });
});
