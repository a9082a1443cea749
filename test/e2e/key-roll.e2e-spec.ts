import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { CLOCK, type Clock } from '#core/clock/clock.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';

/**
 * A rolled key through the real bootstrap (docs/design-record.md#d29): the old key answers until its
 * expiry and from it is refused exactly as a revoked key is; the new key works. The API's clock is
 * moved, never waited for.
 */
const HOUR = 60 * 60 * 1000;
/** Real time, moved by `offsetMs`. */
const clock: Clock & { offsetMs: number } = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

let api: E2eApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start(undefined, [[CLOCK, clock]]);
  tenant = await createTenant();
});
afterAll(() => api.close());
afterEach(() => {
  clock.offsetMs = 0;
});

const keys = () => api.app.get(ApiKeysService);
const roll = (key: string, oldKeyExpiresIn: string) =>
  keys().roll({ businessSlug: tenant.slug, memberEmail: tenant.ownerEmail, key: { prefix: key.slice(0, 12) }, oldKeyExpiresIn });

/** The answer's problem without its request id, which differs per request. */
function problem(res: ApiResponse): { status: number; contentType: unknown; body: Record<string, unknown> } {
  const { requestId, ...body } = res.body as Record<string, unknown>;
  expect(requestId).toBe(res.headers['x-request-id']);
  return { status: res.status, contentType: res.headers['content-type'], body };
}

async function revokedKeyProblem(): Promise<ReturnType<typeof problem>> {
  const revoked = await createKey(api.app, tenant, ['services.read']);
  await keys().revoke(tenant.slug, { prefix: revoked.slice(0, 12) });
  return problem(await api.get('/me', { key: revoked }));
}

describe('a rolled key through the API', () => {
  it('answers with the old key until its expiry, then refuses it as a revoked key; the new key works throughout', async () => {
    // Not used before the roll: a lookup cached then would answer for AUTH_CACHE_TTL_MS as it was.
    const old = await createKey(api.app, tenant, ['services.read', 'clients.read']);
    const rolled = await roll(old, '1h');
    const fresh = await api.get('/me', { key: rolled.key });
    expect(fresh.status).toBe(200);
    expect(fresh.body.key).toMatchObject({
      prefix: rolled.prefix,
      name: rolled.name,
      apiVersion: rolled.apiVersion,
      mode: 'live',
      scopes: [{ scope: 'services.read' }, { scope: 'clients.read' }].map((s) => expect.objectContaining(s)),
    });

    clock.offsetMs = HOUR - 1000;
    expect((await api.get('/me', { key: old })).status).toBe(200);
    clock.offsetMs = HOUR;
    const expired = problem(await api.get('/me', { key: old }));
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('API_KEY_INVALID');
    expect(expired).toEqual(await revokedKeyProblem());
    expect((await api.get('/me', { key: rolled.key })).status).toBe(200);
  });

  it('refuses the old key at once when the roll ends it now', async () => {
    const old = await createKey(api.app, tenant, ['services.read']);
    const rolled = await roll(old, 'now');
    const refused = problem(await api.get('/me', { key: old }));
    expect(refused).toEqual(await revokedKeyProblem());
    expect((await api.get('/me', { key: rolled.key })).status).toBe(200);
  });
});
