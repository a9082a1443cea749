import { randomUUID } from 'node:crypto';
import { createApiApp } from '#api/configure-app.js';
import { ConfigError } from '#config/app-config.js';
import { WorkerModule } from '#worker/worker.module.js';
import { runAdminCommand } from '../utils/admin-runner.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testConfig } from '../utils/test-config.js';

// The waitlist is registered (extensions/index.ts) but, as every extension, served only where
// EXTENSIONS names it (docs/extending.md); its own e2e tests enable it.
let api: E2eApi;
let tenant: Tenant;
beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
});
afterAll(() => api.close());

describe('a registered extension that EXTENSIONS does not name', () => {
  it('serves none of its routes', async () => {
    // Served, this body would be refused as invalid (400); here there is no such operation.
    const join = await api.post('/waitlist', { key: tenant.key, headers: { 'Idempotency-Key': randomUUID() }, body: {} });
    expect([join.status, join.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('is not in the served document, and its notice types cannot be subscribed to', async () => {
    const document = (await api.get('/openapi.json')).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/waitlist'))).toEqual([]);
    expect(Object.keys(document.webhooks)).not.toContain('waitlist.joined');

    const byApi = await api.post('/webhook-endpoints', {
      key: tenant.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { url: 'http://127.0.0.1:9/notices', events: ['waitlist.joined'] },
    });
    expect([byApi.status, byApi.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const byAdmin = await runAdminCommand([
      'webhook',
      'create',
      '--business',
      tenant.slug,
      '--url',
      'http://127.0.0.1:9/notices',
      '--events',
      'waitlist.joined',
    ]);
    expect([byAdmin.code, byAdmin.error.code, byAdmin.error.errors]).toEqual([
      1,
      'VALIDATION_FAILED',
      [{ path: '/events', message: expect.stringMatching(/^has unknown event types: waitlist\.joined \(known: /) }],
    ]);
  });

  it('adds no admin command', async () => {
    const run = await runAdminCommand(['waitlist', 'list', '--business', tenant.slug]);
    expect([run.code, run.error.code]).toEqual([2, 'USAGE']);
  });
});

describe('EXTENSIONS naming no registered extension', () => {
  const unknown = testConfig({ EXTENSIONS: 'waitlist,loyalty' });
  const detail = 'Invalid configuration:\n  EXTENSIONS: no extension is registered as loyalty (registered: waitlist)';

  it('refuses the start of the API, the worker and an admin command', async () => {
    await expect(createApiApp(unknown)).rejects.toThrow(new ConfigError(detail));
    expect(() => WorkerModule.forRoot(unknown)).toThrow(new ConfigError(detail));
    const run = await runAdminCommand(['business', 'plan', '--business', tenant.slug, '--plan', 'TEAM'], unknown);
    expect([run.code, run.error]).toEqual([1, { code: 'CONFIG_INVALID', detail }]);
  });
});
