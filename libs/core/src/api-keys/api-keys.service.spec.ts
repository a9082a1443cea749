import { jest } from '@jest/globals';
import type { AppConfig } from '#config/app-config.js';
import type { Database } from '#database/database.js';
import type { BusinessesRepository } from '../businesses/businesses.repository.js';
import type { BusinessesService } from '../businesses/businesses.service.js';
import type { Clock } from '../clock/clock.js';
import type { SandboxService } from '../sandbox/sandbox.service.js';
import { generateApiKey } from './api-key-format.js';
import type { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import type { AuthenticatedKey } from './authenticated-key.js';

describe('ApiKeysService key lookups', () => {
  const validKey = generateApiKey();
  let owner: AuthenticatedKey;
  let lookups: string[];
  let service: ApiKeysService;
  /** The service's clock, moved by the tests; the cache's lifetime stays on the frozen Date.now. */
  let now: Date;

  beforeEach(() => {
    // A frozen clock: nothing expires during the test, however slow the machine.
    jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    owner = { keyId: 'k1', prefix: validKey.slice(0, 12), mode: 'live', expiresAt: null } as AuthenticatedKey;
    now = new Date('2030-01-01T00:00:00Z');
    const clock: Clock = { now: () => now };
    lookups = [];
    const config = { API_KEY_PEPPER: 'p'.repeat(32), AUTH_CACHE_TTL_MS: 1000 } as AppConfig;
    let validHash: string | undefined;
    const repository = {
      findActiveByHash: (hash: string) => {
        lookups.push(hash);
        validHash ??= hash;
        return Promise.resolve(hash === validHash ? owner : null);
      },
    } as unknown as ApiKeysRepository;
    service = new ApiKeysService(
      config,
      {} as Database,
      repository,
      {} as BusinessesService,
      {} as BusinessesRepository,
      {} as SandboxService,
      clock,
    );
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps a valid key cached through a flood of 12,000 unknown keys', async () => {
    expect(await service.authenticate(validKey)).toBe(owner);
    for (let i = 0; i < 12_000; i++) expect(await service.authenticate(generateApiKey())).toBeNull();
    expect(lookups).toHaveLength(12_001);
    expect(service.cachedLookup(validKey)).toBe(owner);
    expect(await service.authenticate(validKey)).toBe(owner);
    expect(lookups).toHaveLength(12_001);
  });

  it('answers malformed keys from nothing, and tells a key only the database knows', async () => {
    expect(service.cachedLookup('rk_live_short')).toBeNull();
    expect(service.cachedLookup(validKey)).toBeUndefined();
    await service.authenticate(validKey);
    expect(service.cachedLookup(validKey)).toBe(owner);
  });

  it('runs the lookup hooks around the database only, with the stored hash and what the lookup found', async () => {
    const calls: string[] = [];
    const hooks = {
      beforeDatabase: (hash: string) => {
        calls.push(`before ${hash}`);
        return Promise.resolve();
      },
      afterDatabase: (hash: string, valid: boolean) => {
        calls.push(`after ${hash} ${valid}`);
        return Promise.resolve();
      },
    };
    const unknownKey = generateApiKey();
    await service.authenticate(validKey, hooks);
    await service.authenticate(unknownKey, hooks);
    await service.authenticate(validKey, hooks);
    await service.authenticate('rk_live_short', hooks);
    expect(calls).toEqual([`before ${lookups[0]}`, `after ${lookups[0]} true`, `before ${lookups[1]}`, `after ${lookups[1]} false`]);
  });

  it('asks the database nothing when the hook before it refuses', async () => {
    const refused = new Error('flood');
    await expect(service.authenticate(validKey, { beforeDatabase: () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(lookups).toHaveLength(0);
  });

  it("refuses a cached key from its expiry on, by the clock at use time, not the cache's lifetime", async () => {
    owner.expiresAt = new Date(now.getTime() + 60_000);
    expect(await service.authenticate(validKey)).toBe(owner);
    now = new Date(now.getTime() + 59_999);
    expect(await service.authenticate(validKey)).toBe(owner);
    expect(service.cachedLookup(validKey)).toBe(owner);
    now = new Date(now.getTime() + 1);
    expect(await service.authenticate(validKey)).toBeNull();
    expect(service.cachedLookup(validKey)).toBeNull();
    // Answered from the cache each time: the expiry was in the cached row.
    expect(lookups).toHaveLength(1);
  });

  it('reports an expired key found by the database as not valid to the hook after it', async () => {
    owner.expiresAt = new Date(now.getTime() - 1);
    const valid: boolean[] = [];
    const found = await service.authenticate(validKey, {
      afterDatabase: (_hash, ok) => {
        valid.push(ok);
        return Promise.resolve();
      },
    });
    expect(found).toBeNull();
    expect(valid).toEqual([false]);
  });
});
