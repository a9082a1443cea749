import { randomUUID } from 'node:crypto';
import type { RequestBody } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let tenant: Tenant;
let db: TestSql;
let phoneSeq = 0;

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
  db = testSql(api.app);
});
afterAll(() => api.close());

const phoneBase = Date.now() % 100_000;

/** A valid Portuguese mobile number (91 + 7 digits) no other test of this run uses. */
function uniquePhone(): string {
  phoneSeq += 1;
  return `+35191${String(phoneBase * 100 + phoneSeq).padStart(7, '0')}`;
}

/** How an answer was sent, beside its body: a replay is sent exactly as the first answer was. */
function sentAs(res: { status: number; headers: Record<string, string | undefined> }) {
  const { 'content-type': type, 'content-length': length, etag, 'transfer-encoding': encoding } = res.headers;
  return { status: res.status, type, length, etag, encoding };
}

function newClient(overrides: Partial<RequestBody<'createClient'>> = {}): RequestBody<'createClient'> {
  return {
    name: 'Maria Santos',
    phone: uniquePhone(),
    email: `maria.${randomUUID().slice(0, 8)}@example.com`,
    birthDate: '1991-05-20',
    guardianName: 'Rosa Santos',
    guardianEmail: 'rosa@example.com',
    consent: true,
    ...overrides,
  } satisfies RequestBody<'createClient'>;
}

const post = (body: unknown, idempotencyKey: string | null = randomUUID(), key = tenant.key) =>
  api.post('/clients', { key, body, headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey } });

async function count(sql: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: string }[]>(sql, params);
  return Number(rows[0].n);
}

/**
 * This test's business's clients with the phone: other tests' businesses share the database, and a
 * seeded one holds +35191 numbers that uniquePhone can also make.
 */
const clientsWithPhone = (phone: string): Promise<number> =>
  count('SELECT count(*) AS n FROM clients WHERE business_id = $1 AND phone = $2', [tenant.businessId, phone]);

describe('POST /clients', () => {
  it('creates a client with the phone in E.164, returns only the contract fields, and records client.created', async () => {
    const body = newClient({ phone: '+351 912 000 111', email: '' });
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Maria Santos',
      phone: '+351912000111',
      email: null,
      birthDate: '1991-05-20',
      metadata: {},
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    for (const hidden of ['guardianName', 'guardianEmail', 'consent', 'notes', 'Rosa']) expect(res.text).not.toContain(hidden);

    const notices = await db.query<{ payload: Record<string, unknown> }[]>(
      `SELECT payload FROM notices WHERE type = 'client.created' AND payload->'data'->>'id' = $1`,
      [res.body.id],
    );
    expect(notices).toHaveLength(1);
    const notice = notices[0].payload;
    expect(Object.keys(notice).sort()).toEqual(['business', 'createdAt', 'data', 'id', 'type']);
    expect(notice).toMatchObject({ type: 'client.created', business: tenant.slug, data: { id: res.body.id } });
    expect(Object.keys(notice.data as object).sort()).toEqual(['id', 'occurredAt']);
  });

  it('replays the first response byte for byte for the same key and body, and does nothing again', async () => {
    const body = newClient();
    const key = randomUUID();
    const first = await post(body, key);
    const again = await post(body, `"${key}"`);
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(sentAs(again)).toEqual(sentAs(first));
    expect(await clientsWithPhone(body.phone)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM notices WHERE payload->'data'->>'id' = $1`, [first.body.id])).toBe(1);
  });

  it('gives one client and identical responses to 20 concurrent identical requests', async () => {
    const body = newClient();
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body, key)));
    expect(new Set(responses.map((r) => `${r.status} ${r.text}`)).size).toBe(1);
    expect(responses[0].status).toBe(201);
    expect(await clientsWithPhone(body.phone)).toBe(1);
  });

  it('refuses the same key with a different body: 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    expect((await post(newClient(), key)).status).toBe(201);
    const reused = await post(newClient(), key);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('requires a well-formed Idempotency-Key sent once: 400 IDEMPOTENCY_KEY_INVALID', async () => {
    for (const key of [null, 'short', 'has spaces in it', 'x'.repeat(256)]) {
      const res = await post(newClient(), key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
  });

  it('answers an existing phone or e-mail (any case) with 409 CLIENT_EXISTS, creates nothing and changes nothing', async () => {
    const original = newClient();
    const created = await post(original);
    expect(created.status).toBe(201);
    const samePhone = await post(newClient({ phone: original.phone, name: 'Someone Else' }));
    expect(samePhone.status).toBe(409);
    expect(samePhone.body.code).toBe('CLIENT_EXISTS');
    const key = randomUUID();
    const sameEmailBody = newClient({ email: original.email!.toUpperCase() });
    const sameEmail = await post(sameEmailBody, key);
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.code).toBe('CLIENT_EXISTS');
    // A stored refusal replays too.
    const replay = await post(sameEmailBody, key);
    expect(replay.status).toBe(409);
    expect(replay.text).toBe(sameEmail.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(sentAs(replay)).toEqual(sentAs(sameEmail));
    expect(
      await count('SELECT count(*) AS n FROM clients WHERE business_id = $1 AND (phone = $2 OR lower(email) = lower($3))', [
        tenant.businessId,
        original.phone,
        original.email,
      ]),
    ).toBe(1);
    const fetched = await api.get(`/clients/${created.body.id}`, { key: tenant.key });
    expect(fetched.body).toEqual(created.body);
  });

  it('names each bad field with a JSON Pointer and stores nothing for a 400', async () => {
    const key = randomUUID();
    // A phone without + is read in the business's country since 1.4.0 (docs/design-record.md#d23): letters are no phone.
    const bad = await post({ ...newClient(), consent: false, nickname: 'M', name: 'M', phone: 'nine one two', email: 'nope' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const paths = (bad.body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['/consent', '/email', '/name', '/nickname', '/phone']);
    // Nothing was recorded under the key: a corrected request with it goes through.
    expect((await post(newClient(), key)).status).toBe(201);
  });

  it('refuses a number that is not a real phone number, naming /phone', async () => {
    const res = await post(newClient({ phone: '+351 000' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '/phone', message: expect.any(String) }]);
  });

  it('answers malformed JSON, a wrong media type and a body over 64 KiB with problem details', async () => {
    const headers = { 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' };
    const malformed = await api.post('/clients', { key: tenant.key, headers, rawBody: '{"name": "Ana",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');
    const text = await api.post('/clients', {
      key: tenant.key,
      headers: { ...headers, 'Content-Type': 'text/plain' },
      rawBody: 'name=Ana',
    });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = await post({ ...newClient(), name: 'x'.repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('checks the key before the body (D2 order) and the scope before the Idempotency-Key', async () => {
    const noKey = await api.post('/clients', { headers: { 'Content-Type': 'application/json' }, rawBody: '{oops' });
    expect(noKey.status).toBe(401);
    const readOnly = await createKey(api.app, tenant, ['clients.read']);
    const forbidden = await post({}, null, readOnly);
    expect(forbidden.status).toBe(403);
  });
});

describe('GET /clients/{id}', () => {
  it("is 404 for a non-UUID id and for another business's client", async () => {
    const created = await post(newClient());
    const other = await createTenant();
    expect((await api.get(`/clients/${created.body.id}`, { key: other.key })).status).toBe(404);
    const notUuid = await api.get('/clients/12345', { key: tenant.key });
    expect(notUuid.status).toBe(404);
    expect(notUuid.body.code).toBe('NOT_FOUND');
  });
});

describe('control characters in names (refused since 1.3.0)', () => {
  it('answers 400 naming the field for a name or guardian name that is not one line, and creates nothing', async () => {
    const single = 'must be one line of text, without control characters (U+0000–U+001F, U+007F)';
    for (const [body, path] of [
      [newClient({ name: 'Maria\rSantos' }), '/name'],
      [newClient({ name: 'Maria\nSantos' }), '/name'],
      [newClient({ name: 'Maria\u0000' }), '/name'],
      [newClient({ guardianName: 'Rosa\u001BSantos' }), '/guardianName'],
      [newClient({ guardianName: 'Rosa\u007F' }), '/guardianName'],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toContainEqual({ path, message: expect.stringMatching(/control characters|NUL/) });
      if (path === '/guardianName') expect(res.body.errors).toEqual([{ path, message: single }]);
      expect(await clientsWithPhone(body.phone.replace(/\s/g, ''))).toBe(0);
    }
    expect((await post(newClient({ name: 'Zoë Saldaña-Öztürk' }))).status).toBe(201);
  });
});
