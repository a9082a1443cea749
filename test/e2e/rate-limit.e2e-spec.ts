import { E2eApi } from '../utils/e2e-api.js';
import { createTenant } from '../utils/tenant-factory.js';

let first: E2eApi;
let second: E2eApi;

beforeAll(async () => {
  first = await E2eApi.start();
  // A second instance of the API with its own Redis connection and limiter, as another process would have.
  second = await E2eApi.start();
});
afterAll(async () => {
  await first.close();
  await second.close();
});

describe('429 API_RATE_LIMIT (D11)', () => {
  it('refuses the 121st request of a key within a minute, with Retry-After and the RateLimit headers', async () => {
    const { key } = await createTenant();
    for (let i = 1; i <= 120; i += 1) {
      const res = await first.get('/me', { key });
      expect(res.status).toBe(200);
      expect(Number(res.headers['ratelimit-remaining'])).toBe(120 - i);
      // The contract: seconds until the window has room again, 0 while requests remain.
      if (i < 120) expect(res.headers['ratelimit-reset']).toBe('0');
      else expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    const refused = await first.get('/me', { key });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('API_RATE_LIMIT');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-limit']).toBe('120');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-policy']).toBe('120;w=60');
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  });

  it('never admits more than 120 requests of one key across two API instances', async () => {
    const { key } = await createTenant();
    const calls = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? first : second).get('/me', { key }));
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(280);
  });
});
