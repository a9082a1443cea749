import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { ServicesRepository } from '#core/services/services.repository.js';
import { ServiceEntity } from '#database/entities/service.entity.js';
import { newId } from '#database/new-id.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';

let api: E2eApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
});
afterAll(() => api.close());

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started <= withinMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${withinMs} ms`);
}

describe('GET /me', () => {
  it('answers with the business and the key, through either scheme', async () => {
    for (const keyHeader of ['bearer', 'x-api-key'] as const) {
      const res = await api.get('/me', { key: tenant.key, keyHeader });
      expect(res.status).toBe(200);
      expect(res.body.business).toEqual({
        slug: tenant.slug,
        name: 'Salon Test',
        timezone: 'Europe/Lisbon',
        country: 'PT',
        currency: 'EUR',
        locale: 'pt-PT',
      });
      expect(res.body.key.prefix).toBe(tenant.key.slice(0, 12));
      expect(res.body.key.scopes).toContainEqual({
        scope: 'services.read',
        description: 'See services, duration and price, the staff who perform them and when they are free.',
      });
      expect(res.headers['ratelimit-policy']).toBe('120;w=60');
    }
  });

  it('accepts both schemes carrying the same key and refuses two different keys', async () => {
    const same = await api.get('/me', { key: tenant.key, headers: { 'X-API-Key': tenant.key } });
    expect(same.status).toBe(200);
    const other = await createKey(api.app, tenant, ['services.read']);
    const different = await api.get('/me', { key: tenant.key, headers: { 'X-API-Key': other } });
    expect(different.status).toBe(401);
    expect(different.body.code).toBe('API_KEY_INVALID');
  });

  it('refuses a credential header sent twice, even with the same valid key (Node would keep the first)', async () => {
    const repeats: Record<string, string[]>[] = [
      { Authorization: [`Bearer ${tenant.key}`, `Bearer ${tenant.key}`] },
      { Authorization: [`Bearer ${tenant.key}`, 'Bearer rk_live_other'] },
      { 'X-API-Key': [tenant.key, tenant.key] },
    ];
    for (const headers of repeats) {
      const res = await api.get('/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('API_KEY_INVALID');
    }
  });
});

describe('401 API_KEY_INVALID', () => {
  it('gives the same body for missing, malformed, bad-checksum, unknown and revoked keys', async () => {
    const revoked = await createKey(api.app, tenant, ['services.read']);
    await api.app.get(ApiKeysService).revoke(tenant.slug, { prefix: revoked.slice(0, 12) });
    const badChecksum = `${tenant.key.slice(0, -1)}${tenant.key.endsWith('A') ? 'B' : 'A'}`;
    const cases: (string | undefined)[] = [undefined, 'not-a-key', badChecksum, generateApiKey(), revoked];
    const bodies = [];
    for (const key of cases) {
      const res = await api.get('/me', { key });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      const { requestId, ...rest } = res.body;
      expect(requestId).toBe(res.headers['x-request-id']);
      bodies.push(rest);
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('refuses a key within one second of `key revoke`', async () => {
    const key = await createKey(api.app, tenant, ['services.read']);
    expect((await api.get('/me', { key })).status).toBe(200);
    await api.app.get(ApiKeysService).revoke(tenant.slug, { prefix: key.slice(0, 12) });
    const elapsed = await eventually(async () => (await api.get('/me', { key })).status === 401, 1000);
    expect(elapsed).toBeLessThanOrEqual(1000);
  });
});

describe('402 PLAN_INTEGRATIONS', () => {
  it('refuses a FREE business and lets it in within a second of moving to SOLO', async () => {
    const free = await createTenant({ plan: 'FREE' });
    const refused = await api.get('/me', { key: free.key });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('PLAN_INTEGRATIONS');
    await api.app.get(BusinessesService).changePlan(free.slug, 'SOLO');
    await eventually(async () => (await api.get('/me', { key: free.key })).status === 200, 1000);
  });
});

describe('GET /services and 403 API_SCOPE_MISSING', () => {
  it('lists the services with the business currency for a key with services.read', async () => {
    const shop = await createTenant({ currency: 'BRL' });
    const services = api.app.get(ServicesRepository);
    for (const [name, active] of [
      ['Manicure', true],
      ['Cut', false],
    ] as const) {
      await services.insert(
        Object.assign(new ServiceEntity(), {
          id: newId(),
          businessId: shop.businessId,
          name,
          durationMin: 45,
          priceCents: 3000,
          category: null,
          active,
          createdAt: new Date(),
          updatedAt: new Date(),
        }),
      );
    }
    const res = await api.get('/services', { key: shop.key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { name: string }) => s.name)).toEqual(['Cut', 'Manicure']);
    expect(res.body.data[1]).toMatchObject({ durationMin: 45, price: { cents: 3000, currency: 'BRL' }, active: true, category: null });
    // Another business's services never show.
    expect((await api.get('/services', { key: tenant.key })).body.data).toEqual([]);
  });

  it('refuses a key without services.read, naming the scope', async () => {
    const key = await createKey(api.app, tenant, ['appointments.read']);
    const res = await api.get('/services', { key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('API_SCOPE_MISSING');
    expect(res.body.detail).toContain('services.read');
    expect(res.headers['ratelimit-remaining']).toBeDefined();
  });
});

describe('problem details and the contract', () => {
  it('answers an unknown route with 404 NOT_FOUND problem+json and a request id', async () => {
    const res = await api.get('/nothing-here', { key: tenant.key });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await api.get('/me', { key: tenant.key, headers: { 'X-Request-Id': 'partner-trace-123' } });
    expect(kept.headers['x-request-id']).toBe('partner-trace-123');
    const replaced = await api.get('/me', { key: tenant.key, headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('serves the document without a key, as JSON and YAML', async () => {
    const json = await api.get('/openapi.json');
    expect(json.status).toBe(200);
    expect(json.body.info.version).toBe('1.5.0');
    expect(json.body.openapi).toMatch(/^3\.1/);
    const yaml = await api.get('/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.text).toContain('version: 1.5.0');
  });
});
