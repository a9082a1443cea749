import { randomUUID } from 'node:crypto';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { NoticeReceiver, eventually } from '../utils/notice-receiver.js';
import { testConfig } from '../utils/test-config.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';

/**
 * The database pool (docs/design-record.md#d24): a hostile business fires ten test pings, through
 * its live key and its sandbox's test key, at a receiver that never answers, while a victim
 * business reads and writes. No ping holds a pooled connection while it waits, at most two run at
 * once for the hostile business (live and sandbox together), and every victim request succeeds
 * while the two hang. The pool is made small so that pings holding connections would take it all.
 */
const POOL = 3;
let api: E2eApi;
let receiver: NoticeReceiver;

beforeAll(async () => {
  api = await E2eApi.start(testConfig({ DATABASE_POOL_SIZE: String(POOL) }));
  receiver = await NoticeReceiver.start(() => 'hang');
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const business = () =>
  createTenantWithSandbox({
    services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351911000123', email: `joao.${randomUUID().slice(0, 8)}@example.com`, consent: true }],
  });

const write = (path: string, key: string, body?: unknown) => api.post(path, { key, body, headers: { 'Idempotency-Key': randomUUID() } });

describe('the database pool beside a hostile business', () => {
  it("serves every victim request while the hostile business's test pings hang, and refuses its pings beyond two", async () => {
    const hostile = await business();
    const victim = await business();
    const endpointOf = async (key: string) => {
      const created = await write('/webhook-endpoints', key, { url: receiver.url(), events: ['appointment.created'] });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    const liveEndpoint = await endpointOf(hostile.live);
    const sandboxEndpoint = await endpointOf(hostile.test);

    const pings: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 5; i++) {
      pings.push(write(`/webhook-endpoints/${liveEndpoint}/test`, hostile.live));
      pings.push(write(`/webhook-endpoints/${sandboxEndpoint}/test`, hostile.test));
    }
    const settled: ApiResponse[] = [];
    for (const ping of pings) void ping.then((res) => settled.push(res));
    // Two pings reach the receiver and hang there; the other eight are refused at once.
    await eventually(() => Promise.resolve(receiver.holding === 2 && settled.length === 8), 20_000, 'two held pings and eight refusals');
    for (const refused of settled) {
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('API_RATE_LIMIT');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // While they hang: more than a pool's worth of the victim's reads and writes, all served.
    const victimCalls = await Promise.all([
      api.get('/me', { key: victim.live }),
      api.get('/services', { key: victim.live }),
      api.get('/clients', { key: victim.live }),
      api.get(`/clients/${victim.clients.joao}`, { key: victim.live }),
      write('/clients', victim.live, {
        name: 'Maria',
        phone: '+351911000456',
        email: `maria.${randomUUID().slice(0, 8)}@example.com`,
        consent: true,
      }),
      api.get('/me', { key: victim.test }),
      api.get('/webhook-endpoints', { key: victim.live }),
    ]);
    expect(victimCalls.map((res) => res.status)).toEqual([200, 200, 200, 200, 201, 200, 200]);
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    // The hostile business's own other requests are served too: only its pings are bounded.
    expect((await api.get('/me', { key: hostile.live })).status).toBe(200);
    expect(receiver.holding).toBe(2);

    // Once the receiver goes away the two pings answer, as failures of the receiver's making.
    await receiver.close();
    const held = (await Promise.all(pings)).filter((res) => res.status === 200);
    expect(held).toHaveLength(2);
    for (const res of held) expect(res.body).toMatchObject({ delivered: false, statusCode: null, error: 'refused' });
  });
});
