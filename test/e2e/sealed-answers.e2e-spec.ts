import { randomUUID } from 'node:crypto';
import type { RequestBody } from '#contract/contract-types.js';
import { SecretsCipher } from '#core/secrets/secrets-cipher.js';
import { sealAnswer } from '#core/idempotency/sealed-answer.js';
import { runAdminCommand } from '../utils/admin-runner.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testConfig } from '../utils/test-config.js';
import { testSql, type TestSql } from '../utils/test-context.js';

/**
 * Stored idempotent answers that hold a secret are sealed at rest like the endpoint's own
 * (docs/design-record.md#d25): the record of a create or a rotation with an Idempotency-Key does
 * not hold the secret in clear for its 24 hours, and its replay still gives the secret back.
 */
const RUN_KEY = testConfig().SECRETS_KEY;
const KEY_9 = Buffer.alloc(32, 0x99).toString('base64');

let api: E2eApi;
let tenant: Tenant;
let db: TestSql;
let keyId: string;

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
  db = testSql(api.app);
  [{ id: keyId }] = await db.query<{ id: string }[]>('SELECT id FROM api_keys WHERE prefix = $1', [tenant.prefix]);
});
afterAll(() => api.close());

async function storedAnswer(idempotencyKey: string): Promise<string> {
  const rows = await db.query<{ response_body: string }[]>(
    'SELECT response_body FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2',
    [keyId, idempotencyKey],
  );
  expect(rows).toHaveLength(1);
  return rows[0].response_body;
}

const endpoint = (path: string) =>
  ({ url: `https://127.0.0.1/${path}`, events: ['appointment.created'] }) satisfies RequestBody<'createWebhookEndpoint'>;

describe('stored idempotent answers that hold a secret (docs/design-record.md#d25)', () => {
  it('a create: the record holds the answer sealed, never the secret; the replay gives the same secret', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const created = await api.post('/webhook-endpoints', { key: tenant.key, headers, body: endpoint('sealed-create') });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;

    const stored = await storedAnswer(headers['Idempotency-Key']);
    expect(stored).toMatch(/^v1:test1:/);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 16));
    expect(stored).not.toContain(created.body.id);

    const replay = await api.post('/webhook-endpoints', { key: tenant.key, headers, body: endpoint('sealed-create') });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(created.text);
    expect(replay.body.secret).toBe(secret);
  });

  it('a rotation: sealed the same way, and replayed', async () => {
    const created = await api.post('/webhook-endpoints', {
      key: tenant.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: endpoint('sealed-rotate'),
    });
    const headers = { 'Idempotency-Key': randomUUID() };
    const path = `/webhook-endpoints/${created.body.id as string}/rotate-secret`;
    const rotated = await api.post(path, { key: tenant.key, headers });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    const stored = await storedAnswer(headers['Idempotency-Key']);
    expect(stored).toMatch(/^v1:test1:/);
    expect(stored).not.toContain(rotated.body.secret as string);

    const replay = await api.post(path, { key: tenant.key, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.secret).toBe(rotated.body.secret);
  });

  it('an answer without a secret is stored as it was sent', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const phone = `+35191${String(parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0')}`;
    const body = { name: 'Rita Sealed', phone, consent: true } satisfies RequestBody<'createClient'>;
    const created = await api.post('/clients', { key: tenant.key, headers, body });
    expect(created.status).toBe(201);
    expect(await storedAnswer(headers['Idempotency-Key'])).toBe(created.text);
  });

  it('`admin secrets re-encrypt` seals stored answers under the new key too; a start without a key an answer is sealed under is refused', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const created = await api.post('/webhook-endpoints', { key: tenant.key, headers, body: endpoint('sealed-reseal') });

    const rotated = testConfig({ SECRETS_KEY: `k9:${KEY_9},${RUN_KEY}` });
    const resealed = await runAdminCommand(['secrets', 're-encrypt'], rotated);
    expect(resealed.code).toBe(0);
    expect(resealed.json.resealedAnswers).toBeGreaterThanOrEqual(1);
    expect(await storedAnswer(headers['Idempotency-Key'])).toMatch(/^v1:k9:/);
    const back = await runAdminCommand(['secrets', 're-encrypt'], testConfig({ SECRETS_KEY: `${RUN_KEY},k9:${KEY_9}` }));
    expect(back.json.resealedAnswers).toBeGreaterThanOrEqual(1);
    const replay = await api.post('/webhook-endpoints', { key: tenant.key, headers, body: endpoint('sealed-reseal') });
    expect(replay.body.secret).toBe(created.body.secret);

    // An answer left under "k9" (every endpoint is back under the run's key): the start is refused.
    const left = { apiKeyId: keyId, idempotencyKey: randomUUID(), answerHoldsSecret: true };
    await db.query(
      `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body,
                                        response_content_type, created_at, expires_at)
       VALUES (gen_random_uuid(), $1, $2, 'POST /v1/api/webhook-endpoints', 201, $3, 'application/json', now(), now() + interval '1 hour')`,
      [left.apiKeyId, left.idempotencyKey, sealAnswer(new SecretsCipher(rotated), left, created.text)],
    );
    const refused = await runAdminCommand(['secrets', 're-encrypt']);
    expect(refused.error.code).toBe('CONFIG_INVALID');
    expect(refused.error.detail).toMatch(/sealed under the key id "k9", which SECRETS_KEY does not hold/);
    expect((await runAdminCommand(['secrets', 're-encrypt'], testConfig({ SECRETS_KEY: `${RUN_KEY},k9:${KEY_9}` }))).code).toBe(0);
    expect(await storedAnswer(left.idempotencyKey)).toMatch(/^v1:test1:/);
    expect((await runAdminCommand(['secrets', 're-encrypt'])).code).toBe(0);
  });
});
