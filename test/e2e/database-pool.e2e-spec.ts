import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { RequestBody } from '#contract/contract-types.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';

/**
 * docs/design-record.md#d24: a request that cannot get a database connection in time answers 503
 * SERVICE_UNAVAILABLE with Retry-After (documented in docs/error-codes.md until 1.4.0), never hangs
 * and never 500. The API runs with a pool of one connection and a short wait, and the test holds
 * that connection.
 */
let api: E2eApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start(testConfig({ DATABASE_POOL_SIZE: '1', DATABASE_CONNECT_TIMEOUT_MS: '300' }));
  tenant = await createTenant();
});
afterAll(() => api.close());

/** Runs `use` while the test holds every connection of the API's pool. */
async function withPoolTaken<T>(use: () => Promise<T>): Promise<T> {
  const pool = (api.app.get(DataSource).driver as unknown as { master: pg.Pool }).master;
  const held = await pool.connect();
  try {
    return await use();
  } finally {
    held.release();
  }
}

function expectUnavailable(res: ApiResponse): void {
  expect({ status: res.status, retryAfter: res.headers['retry-after'], type: res.headers['content-type'] }).toEqual({
    status: 503,
    retryAfter: '5',
    type: expect.stringMatching(/^application\/problem\+json/),
  });
  expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', requestId: res.headers['x-request-id'] });
}

describe('no database connection in time', () => {
  it('answers a read 503 SERVICE_UNAVAILABLE with Retry-After, and serves it once a connection is free', async () => {
    const busy = await withPoolTaken(() => api.get('/clients', { key: tenant.key }));
    expectUnavailable(busy);
    expect((await api.get('/clients', { key: tenant.key })).status).toBe(200);
  });

  it('answers a write 503 without storing it for its Idempotency-Key: the same request sent again is carried out', async () => {
    const body = {
      name: 'Busy Pool',
      phone: `+35196${String(Date.now() % 10_000_000).padStart(7, '0')}`,
      consent: true,
    } satisfies RequestBody<'createClient'>;
    const headers = { 'Idempotency-Key': `busy-pool-${randomUUID()}` };
    const busy = await withPoolTaken(() => api.post('/clients', { key: tenant.key, headers, body }));
    expectUnavailable(busy);
    const again = await api.post('/clients', { key: tenant.key, headers, body });
    expect({ status: again.status, replayed: again.headers['idempotent-replayed'] }).toEqual({ status: 201, replayed: undefined });
  });

  it('reports the instance not ready while it lasts, naming PostgreSQL', async () => {
    const ready = await withPoolTaken(() => api.get('/health/ready'));
    expect(ready.status).toBe(503);
    expect(ready.body.error).toMatchObject({ postgresql: { status: 'down' } });
  });
});
