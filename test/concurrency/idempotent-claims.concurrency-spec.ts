import { randomUUID } from 'node:crypto';
import type { ResolvedAddress } from '#core/notices/endpoints/host-lookup.js';
import { HOST_LOOKUP } from '#core/notices/endpoints/webhook-resolver.js';
import { ApiRateLimiter } from '#core/rate-limit/api-rate-limiter.js';
import { API_RATE_LIMIT_POLICY, type RateLimitDecision } from '#core/rate-limit/rate-limit.types.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { NoticeReceiver } from '../utils/notice-receiver.js';
import { testSql, type TestSql } from '../utils/test-context.js';
import { testConfig } from '../utils/test-config.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';

/**
 * The duplicate-in-flight race of the writes that wait on the network and so run under a claimed
 * Idempotency-Key (docs/design-record.md#d24): creating an endpoint and a test ping. Several
 * identical requests with one key sent at once, each sent again as soon as it is told the first
 * is in progress, must make one write and get one answer, with nothing of the claim left behind.
 *
 * The race is made likely, not timed: every name these writes look up answers only after a
 * pause, so the first write is still running when every duplicate has arrived and keeps asking,
 * and they are all asking when it stores its answer.
 */
const TRIALS = 10;
const DUPLICATES = 5;
/** A duplicate asks again at once on 409 IDEMPOTENCY_IN_PROGRESS; this bounds a loop that never ends. */
const MOST_ASKS = 5_000;
const LOOKUP_PAUSE_MS = 150;

let api: E2eApi;
let db: TestSql;
let receiver: NoticeReceiver;
/** Every name looked up, in order. */
const lookups: string[] = [];

/** Names under .claims.test are this machine, found after a pause. */
function slowLookup(hostname: string): Promise<ResolvedAddress[]> {
  lookups.push(hostname);
  if (!hostname.endsWith('.claims.test')) {
    return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  }
  return new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), LOOKUP_PAUSE_MS));
}

/** The retries are the point here, not the per-key limit (docs/design-record.md#d11), which would refuse them. */
const unlimited = {
  consume: (): Promise<RateLimitDecision> =>
    Promise.resolve({
      allowed: true,
      limit: API_RATE_LIMIT_POLICY.limit,
      remaining: API_RATE_LIMIT_POLICY.limit,
      resetSeconds: 0,
      retryAfterSeconds: null,
    }),
};

beforeAll(async () => {
  receiver = await NoticeReceiver.start();
  api = await E2eApi.start(testConfig(), [
    [HOST_LOOKUP, slowLookup],
    [ApiRateLimiter, unlimited],
  ]);
  db = testSql(api.app);
});
afterAll(async () => {
  await api.close();
  await receiver.close();
});

const hookUrl = (name: string) => `http://${name}.claims.test:${receiver.port}/${name}`;
const lookupsOf = (name: string) => lookups.filter((hostname) => hostname === `${name}.claims.test`).length;

/** Sends the request until it is told something other than "in progress"; returns that answer and how many times it asked. */
async function untilSettled(send: () => Promise<ApiResponse>): Promise<{ answer: ApiResponse; asks: number }> {
  for (let asks = 1; asks <= MOST_ASKS; asks += 1) {
    const answer = await send();
    if (answer.status !== 409 || answer.body.code !== 'IDEMPOTENCY_IN_PROGRESS') return { answer, asks };
  }
  throw new Error(`still in progress after ${MOST_ASKS} asks`);
}

/** DUPLICATES identical requests at once, each until settled; checks what every duplicate must get. */
async function race(send: (idempotencyKey: string) => Promise<ApiResponse>, key: string): Promise<ApiResponse> {
  const settled = await Promise.all(Array.from({ length: DUPLICATES }, () => untilSettled(() => send(key))));
  const answers = settled.map(({ answer }) => answer);
  // Every answer the first one, replayed byte for byte: never a 5xx, never another write's.
  expect(answers.map(({ status }) => status).filter((status) => status < 200 || status >= 300)).toEqual([]);
  expect(new Set(answers.map(({ status }) => status)).size).toBe(1);
  expect(new Set(answers.map(({ text }) => text)).size).toBe(1);
  expect(answers.filter(({ headers }) => headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
  // The duplicates did race the first write: at least one was told it was in progress.
  expect(settled.some(({ asks }) => asks > 1)).toBe(true);
  expect(await claimsOf(key)).toBe(0);
  return answers[0];
}

const trials = Array.from({ length: TRIALS }, (_, trial) => trial + 1);

describe('a duplicate of a write that waits on the network, in flight', () => {
  it.each(trials)('POST /webhook-endpoints, trial %i: one endpoint, one answer, no claim left', async (trial) => {
    const tenant = await createTenant();
    const name = `create-${trial}-${randomUUID().slice(0, 8)}`;
    const body = { url: hookUrl(name), events: ['appointment.created'] };
    const created = await race(
      (key) => api.post('/webhook-endpoints', { key: tenant.key, body, headers: { 'Idempotency-Key': key } }),
      randomUUID(),
    );
    expect(created.status).toBe(201);
    const listed = await api.get('/webhook-endpoints', { key: tenant.key });
    expect(listed.body.data.map(({ id }: { id: string }) => id)).toEqual([created.body.id]);
    expect(lookupsOf(name)).toBe(1);
  });

  it.each(trials)('POST /webhook-endpoints/{id}/test, trial %i: one ping sent and logged, one answer, no claim left', async (trial) => {
    const tenant = await createTenant();
    const name = `ping-${trial}-${randomUUID().slice(0, 8)}`;
    const endpoint = await createEndpoint(tenant, name);
    const pinged = await race(
      (key) => api.post(`/webhook-endpoints/${endpoint}/test`, { key: tenant.key, headers: { 'Idempotency-Key': key } }),
      randomUUID(),
    );
    expect(pinged.status).toBe(200);
    expect(pinged.body.delivered).toBe(true);
    expect(receiver.received.filter(({ path }) => path === `/${name}`)).toHaveLength(1);
    const logged = await api.get(`/webhook-endpoints/${endpoint}/deliveries`, { key: tenant.key });
    expect(logged.body.data).toHaveLength(1);
  });
});

/**
 * The third write that waits on the network, a change of address, takes no Idempotency-Key (the
 * contract has none for PATCH): it runs under no claim, and duplicates of it each run, to the same
 * end. What must hold all the same: no 5xx, one end state, nothing claimed for a header it ignores.
 */
describe('duplicates of a change of address, at once', () => {
  it.each(trials.slice(0, 3))(
    'PATCH /webhook-endpoints/{id} with a new url, trial %i: every duplicate 200, one end state',
    async (trial) => {
      const tenant = await createTenant();
      const endpoint = await createEndpoint(tenant, `patch-${trial}-before-${randomUUID().slice(0, 8)}`);
      const url = hookUrl(`patch-${trial}-after-${randomUUID().slice(0, 8)}`);
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: DUPLICATES }, () =>
          api.patch(`/webhook-endpoints/${endpoint}`, { key: tenant.key, body: { url }, headers: { 'Idempotency-Key': key } }),
        ),
      );
      expect(answers.map(({ status }) => status)).toEqual(Array.from({ length: DUPLICATES }, () => 200));
      expect(answers.every(({ body }) => body.url === url)).toBe(true);
      const now = await api.get(`/webhook-endpoints/${endpoint}`, { key: tenant.key });
      expect(now.body.url).toBe(url);
      expect(answers.map(({ text }) => text)).toContain(now.text);
      expect(await claimsOf(key)).toBe(0);
    },
  );
});

async function claimsOf(key: string): Promise<number> {
  const rows = await db.query<{ n: string }[]>('SELECT count(*) AS n FROM idempotency_claims WHERE idempotency_key = $1', [key]);
  return Number(rows[0].n);
}

async function createEndpoint(tenant: Tenant, name: string): Promise<string> {
  const created = await api.post('/webhook-endpoints', {
    key: tenant.key,
    body: { url: hookUrl(name), events: ['appointment.created'] },
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}
