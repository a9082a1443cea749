import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { countKeyLookups, type KeyLookups } from '../utils/key-lookups.js';
import { E2eApi } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';

// Two instances sharing one Redis count an address's failures together (docs/design-record.md#d2).
const LIMIT = 5;
const shared = { AUTH_FAILURE_LIMIT: String(LIMIT), QUEUE_PREFIX: `authfail-${randomUUID()}` };
let first: E2eApi;
let second: E2eApi;
let tenant: Tenant;
let lookups: KeyLookups;

beforeAll(async () => {
  first = await E2eApi.start(testConfig(shared));
  // Behind one trusted proxy, so the test can speak from other addresses through X-Forwarded-For.
  second = await E2eApi.start(testConfig({ ...shared, TRUSTED_PROXIES: '1' }));
  tenant = await createTenant();
  lookups = countKeyLookups([first, second]);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await Promise.all([first.close(), second.close()]);
});
beforeEach(() => {
  lookups.count = 0;
});

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After once an address has failed AUTH_FAILURE_LIMIT times, across instances, without looking keys up, and still serves a valid key', async () => {
    const address = '203.0.113.7';
    const from = { 'X-Forwarded-For': address };
    // The partner's key has authenticated before, on the other instance: it is known to be valid
    // (docs/design-record.md#d24). The other tenant's key has never been used.
    expect((await first.get('/me', { key: tenant.key })).status).toBe(200);
    const unused = await createTenant();
    lookups.count = 0;
    for (let i = 0; i < LIMIT; i++) {
      const res = await second.get('/me', { key: generateApiKey(), headers: from });
      expect(res.status).toBe(401);
    }
    expect(lookups.count).toBe(LIMIT);

    for (const key of [generateApiKey(), generateApiKey('test'), 'not-a-key', undefined, unused.key]) {
      const res = await second.get('/me', { key, headers: from });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('API_RATE_LIMIT');
      expect(res.body.detail).toMatch(/failed authentications/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // None of the refused keys cost a database lookup: a valid key that has never authenticated
    // cannot be told from a guess without one.
    expect(lookups.count).toBe(LIMIT);

    // The known key is looked up (this instance has not cached it) and served from the same address.
    const served = await second.get('/me', { key: tenant.key, headers: from });
    expect(served.status).toBe(200);
    expect(served.body.business.slug).toBe(tenant.slug);
    expect(lookups.count).toBe(LIMIT + 1);

    // Another address behind the same proxy is not affected: its unknown key is looked up.
    const other = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '203.0.113.8' } });
    expect(other.status).toBe(401);
  });

  it('counts every address of an IPv6 /64 together, and an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': `2001:db8:26:1::${i.toString(16)}` } });
      expect(res.status).toBe(401);
    }
    const sameNetwork = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '2001:db8:26:1:ffff::99' } });
    expect(sameNetwork.status).toBe(429);
    const nextNetwork = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '2001:db8:26:2::1' } });
    expect(nextNetwork.status).toBe(401);

    for (let i = 0; i < LIMIT; i++) {
      const res = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '::ffff:198.51.100.77' } });
      expect(res.status).toBe(401);
    }
    const mapped = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '198.51.100.77' } });
    expect(mapped.status).toBe(429);
  });

  it('counts the socket address when no proxy is trusted, whatever X-Forwarded-For says, and shares the count between instances', async () => {
    for (let i = 0; i < LIMIT; i++) {
      // A different forged address each time: without a trusted proxy it changes nothing.
      const res = await first.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': `198.51.100.${i}` } });
      expect(res.status).toBe(401);
    }
    // The second instance sees 127.0.0.1 through a proxy header naming it.
    const refused = await second.get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '127.0.0.1' } });
    const socket = await first.get('/me', { key: generateApiKey() });
    for (const res of [refused, socket]) {
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('API_RATE_LIMIT');
    }
  });
});
