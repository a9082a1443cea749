import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { countKeyLookups, type KeyLookups } from '../utils/key-lookups.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';
import { createTenantWithSandbox } from '../utils/tenant-factory.js';

/**
 * The failed-authentication limit as a shared resource (docs/design-record.md#d24): a hostile
 * floods bad keys from the victim's own address and from the other addresses of its IPv6 /64, on
 * both instances behind one proxy. The hostile's keys from anywhere in the /64 are refused after the
 * limit without a database lookup; the victim's live and test keys, which authenticated before the
 * flood, keep being served.
 */
const LIMIT = 10;
// Every request of the victim is a lookup, as on an instance that has not cached its key.
const settings = {
  AUTH_FAILURE_LIMIT: String(LIMIT),
  AUTH_CACHE_TTL_MS: '0',
  TRUSTED_PROXIES: '1',
  QUEUE_PREFIX: `authfail-iso-${randomUUID()}`,
};
const NETWORK = '2001:db8:24:1';
const VICTIM_ADDRESS = `${NETWORK}::10`;

let instances: E2eApi[];
let lookups: KeyLookups;

beforeAll(async () => {
  instances = [await E2eApi.start(testConfig(settings)), await E2eApi.start(testConfig(settings))];
  lookups = countKeyLookups(instances);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await Promise.all(instances.map((api) => api.close()));
});

/** A business with a live key and a test key (its sandbox's) of every scope. */
const business = () => createTenantWithSandbox();

/** One character of a key changed: what a typo, or a guess built on a leaked key, looks like. */
const mangled = (key: string): string => `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;

describe('a failed-authentication flood from the victim’s own address and /64', () => {
  it('refuses the hostile’s keys from any address of the /64 after the limit, and serves the victim’s live and test keys throughout', async () => {
    const victim = await business();
    const hostile = await business();
    const victimHeaders = { 'X-Forwarded-For': VICTIM_ADDRESS };
    const victimCalls: ApiResponse[] = [];
    const asVictim = async (round: number) => {
      const api = instances[round % 2];
      victimCalls.push(await api.get('/me', { key: victim.live, headers: victimHeaders }));
      victimCalls.push(await api.get('/services', { key: victim.test, headers: victimHeaders }));
    };

    // The victim is a partner in use: its keys have authenticated before the flood.
    await asVictim(0);
    lookups.count = 0;

    // The hostile's bad keys: unknown live and test keys, its own keys mistyped, none at all.
    const badKeys: (() => string | undefined)[] = [
      () => generateApiKey(),
      () => generateApiKey('test'),
      () => mangled(hostile.live),
      () => mangled(hostile.test),
      () => undefined,
    ];
    const hostileStatuses: number[] = [];
    let hostileLookupsPastLimit = 0;
    const rounds = 4 * LIMIT;
    for (let round = 1; round <= rounds; round++) {
      // Every other request from the victim's own address, the rest from others of its /64.
      const address = round % 2 === 0 ? VICTIM_ADDRESS : `${NETWORK}::${(0x1000 + round).toString(16)}`;
      const before = lookups.count;
      const res = await instances[round % 2].get('/me', {
        key: badKeys[round % badKeys.length](),
        headers: { 'X-Forwarded-For': address },
      });
      if (round > LIMIT) hostileLookupsPastLimit += lookups.count - before;
      hostileStatuses.push(res.status);
      if (res.status === 429) expect(res.body.code).toBe('API_RATE_LIMIT');
      if (round % 4 === 0) await asVictim(round);
    }

    expect(hostileStatuses.slice(0, LIMIT)).toEqual(Array<number>(LIMIT).fill(401));
    expect(hostileStatuses.slice(LIMIT)).toEqual(Array<number>(rounds - LIMIT).fill(429));
    expect(hostileLookupsPastLimit).toBe(0);
    expect(victimCalls.map((res) => res.status)).toEqual(Array<number>(victimCalls.length).fill(200));

    // Another /64 is another client: its bad key is looked up and refused as invalid.
    const elsewhere = await instances[0].get('/me', { key: generateApiKey(), headers: { 'X-Forwarded-For': '2001:db8:24:2::10' } });
    expect(elsewhere.status).toBe(401);
  });
});
