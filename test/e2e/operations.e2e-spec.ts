import { E2eApi } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';
import { createTenant } from '../utils/tenant-factory.js';

let api: E2eApi;
beforeAll(async () => {
  api = await E2eApi.start();
});
afterAll(() => api.close());

/** The value of one sample of a metric in Prometheus text format, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('health', () => {
  it('answers liveness and readiness without a key, outside the rate limit', async () => {
    const live = await api.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers['ratelimit-limit']).toBeUndefined();
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info).toMatchObject({ postgresql: { status: 'up' }, redis: { status: 'up' } });
  });

  it('reports each dependency: 503 naming Redis when Redis cannot be reached', async () => {
    const withoutRedis = await E2eApi.start(testConfig({ REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      const ready = await withoutRedis.get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('error');
      expect(ready.body.info.postgresql.status).toBe('up');
      expect(ready.body.error.redis.status).toBe('down');
    } finally {
      await withoutRedis.close();
    }
  });
});

describe('metrics', () => {
  it('serves Prometheus text whose request counters move when requests are made', async () => {
    const { key } = await createTenant(api.app);
    const before = await api.get('/metrics');
    expect(before.status).toBe(200);
    expect(before.headers['content-type']).toMatch(/^text\/plain/);
    const labels = { route: '/v1/api/me', method: 'GET', status: '200' };
    const start = sample(before.text, 'http_requests_total', labels);
    for (let i = 0; i < 3; i += 1) await api.get('/me', { key });
    const after = await api.get('/metrics');
    expect(sample(after.text, 'http_requests_total', labels)).toBe(start + 3);
    expect(after.text).toContain('http_request_duration_seconds_bucket');
    expect(after.text).toMatch(/^notices_outbox_pending \d+/m);
    expect(after.text).toMatch(/^notices_outbox_lag_seconds [\d.]+/m);
  });
});

describe('GET /docs', () => {
  it('serves the reference page and its script without a key', async () => {
    const page = await api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('/v1/api/openapi.json');
    const script = await api.get('/docs/reference.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain('createApiReference');
  });
});
