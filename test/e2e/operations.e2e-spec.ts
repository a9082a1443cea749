import request from 'supertest';
import { E2eApi } from '../utils/e2e-api.js';
import { eventually } from '../utils/notice-receiver.js';
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
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('health', () => {
  it('answers liveness and readiness without a key, outside the rate limit', async () => {
    const live = await api.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers['ratelimit-limit']).toBeUndefined();
    // Right after boot the Redis client may still be connecting: not ready yet, truthfully.
    const ready = await eventually(
      async () => {
        const res = await api.get('/health/ready');
        return res.status === 200 ? res : null;
      },
      5_000,
      'readiness',
    );
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
  it('is not served on the API port, which any client reaches', async () => {
    const res = await api.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('http_requests_total');
  });

  it('serves Prometheus text on METRICS_PORT whose request counters move when requests are made', async () => {
    const { key } = await createTenant();
    const before = await api.metrics();
    expect(before.status).toBe(200);
    expect(before.contentType).toMatch(/^text\/plain/);
    const labels = { route: '/v1/api/me', method: 'GET', status: '200' };
    const start = sample(before.text, 'http_requests_total', labels);
    for (let i = 0; i < 3; i += 1) await api.get('/me', { key });
    const after = await api.metrics();
    expect(sample(after.text, 'http_requests_total', labels)).toBe(start + 3);
    expect(after.text).toContain('http_request_duration_seconds_bucket');
    expect(after.text).toMatch(/^notices_outbox_pending \d+/m);
    expect(after.text).toMatch(/^notices_outbox_lag_seconds [\d.]+/m);
  });

  it('reports the depth of every job queue (from Redis) and the outcomes of recent delivery attempts', async () => {
    const text = (await api.metrics()).text;
    for (const queue of ['notices', 'emails', 'maintenance']) {
      for (const state of ['waiting', 'active', 'delayed', 'prioritized', 'failed']) {
        expect(text).toMatch(new RegExp(`^queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+$`, 'm'));
      }
    }
    for (const outcome of ['delivered', 'http_error', 'no_response']) {
      expect(text).toMatch(new RegExp(`^notice_delivery_attempts_5m\\{outcome="${outcome}"\\} \\d+$`, 'm'));
    }
  });

  it('leaves the queue series out while Redis does not answer, and still serves the others', async () => {
    const withoutRedis = await E2eApi.start(testConfig({ REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      const metrics = await withoutRedis.metrics();
      expect(metrics.status).toBe(200);
      expect(metrics.text).not.toMatch(/^queue_jobs\{/m);
      expect(metrics.text).toMatch(/^notices_outbox_pending \d+/m);
    } finally {
      await withoutRedis.close();
    }
  });
});

describe('queue dashboard (/admin/queues)', () => {
  const token = 'operators-token-operators-token-0123456789';

  it('does not exist without QUEUE_DASHBOARD_TOKEN', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const res = await request(api.app.getHttpServer()).get(path).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(404);
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  describe('with QUEUE_DASHBOARD_TOKEN', () => {
    let board: E2eApi;
    beforeAll(async () => {
      board = await E2eApi.start(testConfig({ QUEUE_DASHBOARD_TOKEN: token }));
    });
    afterAll(() => board.close());
    const get = (path: string) => request(board.app.getHttpServer()).get(path);

    it('refuses a request without the token, or with another, asking for it', async () => {
      for (const authorization of [
        undefined,
        `Bearer ${token}x`,
        `Bearer ${token.slice(0, -1)}`,
        'Bearer',
        `Basic ${Buffer.from(`admin:${token}x`).toString('base64')}`,
      ]) {
        const res =
          authorization === undefined ? await get('/admin/queues') : await get('/admin/queues').set('Authorization', authorization);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/Basic realm="queue dashboard"/);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['x-request-id']).toBeDefined();
      }
      // Its API and assets too, not only the page.
      expect((await get('/admin/queues/api/queues')).status).toBe(401);
    });

    it('serves the board with the token as a bearer token, or as the password of HTTP Basic (a browser)', async () => {
      const page = await get('/admin/queues').set('Authorization', `Bearer ${token}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Scheduling queues');

      const basic = await get('/admin/queues').set('Authorization', `Basic ${Buffer.from(`ops:${token}`).toString('base64')}`);
      expect(basic.status).toBe(200);

      const queues = await get('/admin/queues/api/queues').set('Authorization', `Bearer ${token}`);
      expect(queues.status).toBe(200);
      expect((queues.body as { queues: { name: string }[] }).queues.map((queue) => queue.name).sort()).toEqual([
        'emails',
        'maintenance',
        'notices',
      ]);
    });

    it('is read-only: its actions are refused with 405 and its queues say so', async () => {
      const queues = await get('/admin/queues/api/queues').set('Authorization', `Bearer ${token}`);
      for (const queue of (queues.body as { queues: { readOnlyMode: boolean }[] }).queues) expect(queue.readOnlyMode).toBe(true);
      for (const path of ['/admin/queues/api/queues/pause', '/admin/queues/api/queues/notices/retry/failed']) {
        const res = await request(board.app.getHttpServer()).put(path).set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(405);
        expect(res.body.detail).toMatch(/QUEUE_DASHBOARD_WRITE=true/);
      }
    });

    it('acts on jobs with QUEUE_DASHBOARD_WRITE=true', async () => {
      const writable = await E2eApi.start(testConfig({ QUEUE_DASHBOARD_TOKEN: token, QUEUE_DASHBOARD_WRITE: 'true' }));
      try {
        const res = await request(writable.app.getHttpServer())
          .put('/admin/queues/api/queues/emails/retry/failed')
          .set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(200);
      } finally {
        await writable.close();
      }
    });
  });
});

describe('security headers', () => {
  it('are on every answer: API success and problem, health, unknown routes and the docs, whose policy is its own', async () => {
    const { key } = await createTenant();
    const answers = await Promise.all([
      api.get('/me', { key }),
      api.get('/me'),
      api.get('/health/live'),
      api.get('/no-such-route'),
      api.get('/v1/api/openapi.json'),
      api.get('/docs'),
    ]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    }
    expect(answers[0].headers['content-security-policy']).toMatch(/^default-src 'none'/);
    const docs = answers.at(-1)!.headers['content-security-policy'];
    expect(docs).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(docs).toMatch(/connect-src 'self'/);
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
