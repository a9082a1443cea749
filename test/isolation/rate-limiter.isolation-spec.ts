import { API_RATE_LIMIT_POLICY } from '#core/rate-limit/rate-limit.types.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';

/**
 * The per-key rate limit as a shared resource (docs/design-record.md#d11, #d24): its logs live in
 * one Redis shared by every instance and every business. A hostile business spends the whole limit
 * of its live key and of its sandbox's test key, on two instances, while a victim business calls
 * beside it: the hostile is refused past the limit, the victim is answered every time and its
 * remaining count is its own.
 */
let instances: E2eApi[];

beforeAll(async () => {
  instances = [await E2eApi.start(), await E2eApi.start()];
});
afterAll(async () => {
  await Promise.all(instances.map((api) => api.close()));
});

/** A business with a live key and a test key (its sandbox's) of every scope. */
const business = () => createTenantWithSandbox();

describe('a business that spends its whole rate limit', () => {
  it('is refused past the limit on its live and its test key, while another business is answered every time', async () => {
    const { limit } = API_RATE_LIMIT_POLICY;
    const hostile = await business();
    const victim = await business();
    const hostileStatuses: Record<'live' | 'test', number[]> = { live: [], test: [] };
    const victimCalls: ApiResponse[] = [];
    const extra = 10;

    for (let i = 0; i < limit + extra; i++) {
      const api = instances[i % 2];
      hostileStatuses.live.push((await api.get('/services', { key: hostile.live })).status);
      hostileStatuses.test.push((await api.get('/services', { key: hostile.test })).status);
      // The victim's calls come in the middle of the hostile's, and past its limit.
      if (i % 5 === 0) {
        victimCalls.push(await api.get('/services', { key: victim.live }));
        victimCalls.push(await api.get('/me', { key: victim.test }));
      }
    }

    for (const mode of ['live', 'test'] as const) {
      expect(hostileStatuses[mode]).toEqual([...Array<number>(limit).fill(200), ...Array<number>(extra).fill(429)]);
    }
    expect(victimCalls.map((res) => res.status)).toEqual(Array<number>(victimCalls.length).fill(200));
    // Each victim key's log holds only its own requests.
    const [lastLive, lastTest] = victimCalls.slice(-2);
    expect(Number(lastLive.headers['ratelimit-remaining'])).toBe(limit - victimCalls.length / 2);
    expect(Number(lastTest.headers['ratelimit-remaining'])).toBe(limit - victimCalls.length / 2);
  });
});
