import { randomUUID } from 'node:crypto';
import { ClientsService } from '#core/clients/clients.service.js';
import { adminOutput, runAdminCommand } from '../../test/utils/admin-runner.js';
import { E2eApi } from '../../test/utils/e2e-api.js';
import { seed } from '../../test/utils/seed.js';
import { testConfig } from '../../test/utils/test-config.js';
import { testSql, type TestSql } from '../../test/utils/test-context.js';
import { createKey, createTenant, type Tenant } from '../../test/utils/tenant-factory.js';
import type { WaitlistSchemas } from './api/waitlist-entry.mapper.js';

/** A deployment that enables the waitlist by name, as every one must (EXTENSIONS; none is enabled by default). */
const config = testConfig({ EXTENSIONS: 'waitlist' });

let api: E2eApi;
let tenant: Tenant;
let db: TestSql;
let serviceId: string;
let phoneSeq = 0;
const phoneBase = Date.now() % 100_000;

/** A valid Portuguese mobile number no other test of this run uses. */
function uniquePhone(): string {
  phoneSeq += 1;
  return `+35192${String(phoneBase * 100 + phoneSeq).padStart(7, '0')}`;
}

/** A client who consented to be contacted, created as POST /clients creates one. */
async function consentingClient(t: Tenant = tenant): Promise<string> {
  const client = await api.app
    .get(ClientsService)
    .create({ businessId: t.businessId, businessSlug: t.slug }, { name: 'Inês Rocha', phone: uniquePhone(), consent: true });
  return client.id;
}

/** A client created by a booking (Form B): never asked for consent. */
async function bookingClient(): Promise<string> {
  const clients = api.app.get(ClientsService);
  const client = clients.prepareForBooking(tenant.businessId, { name: 'Rui Lopes', phone: uniquePhone() });
  await clients.insertPrepared({ businessId: tenant.businessId, businessSlug: tenant.slug }, client);
  return client.id;
}

/** A salon with a key of every scope and one service, seeded as every test seeds its data. */
async function salonWithService(): Promise<{ tenant: Tenant; serviceId: string }> {
  const salon = await seed({ services: [{ ref: 'colour', name: 'Colour', durationMin: 90, priceCents: 6500 }] });
  const { key, prefix } = salon.keys.owner;
  return {
    tenant: { businessId: salon.id, slug: salon.slug, ownerEmail: salon.ownerEmail!, key, prefix },
    serviceId: salon.services.colour,
  };
}

const join = (body: Partial<WaitlistSchemas['WaitlistJoinRequest']>, options: { key?: string; idempotencyKey?: string } = {}) =>
  api.post('/waitlist', { key: options.key ?? tenant.key, body, headers: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() } });

beforeAll(async () => {
  api = await E2eApi.start(config);
  ({ tenant, serviceId } = await salonWithService());
  db = testSql(api.app);
});
afterAll(() => api.close());

describe('the waitlist extension', () => {
  it('puts a client on the waitlist, records waitlist.joined in the outbox, and reads the entry back', async () => {
    const clientId = await consentingClient();
    const created = await join({ clientId, serviceId, from: '2026-12-01', to: '2026-12-20', note: ' Mornings ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      clientId,
      serviceId,
      from: '2026-12-01',
      to: '2026-12-20',
      note: 'Mornings',
      createdAt: expect.any(String),
    });

    const [notice] = await db.query(`SELECT type, payload FROM notices WHERE business_id = $1 AND payload->'data'->>'id' = $2`, [
      tenant.businessId,
      created.body.id,
    ]);
    expect(notice).toEqual({
      type: 'waitlist.joined',
      payload: {
        id: expect.any(String),
        type: 'waitlist.joined',
        createdAt: expect.any(String),
        business: tenant.slug,
        data: { id: created.body.id, occurredAt: created.body.createdAt },
      },
    });

    const read = await api.get(`/waitlist/${created.body.id}`, { key: tenant.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('replays a write sent again with the same Idempotency-Key, without a second entry or notice', async () => {
    const clientId = await consentingClient();
    const idempotencyKey = randomUUID();
    const body = { clientId, serviceId, from: '2026-12-01', to: '2026-12-02' };
    const first = await join(body, { idempotencyKey });
    const again = await join(body, { idempotencyKey });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    const [{ entries, notices }] = await db.query(
      `SELECT (SELECT count(*)::int FROM waitlist_entries WHERE client_id = $1) AS entries,
              (SELECT count(*)::int FROM notices WHERE type = 'waitlist.joined' AND payload->'data'->>'id' = $2) AS notices`,
      [clientId, first.body.id],
    );
    expect({ entries, notices }).toEqual({ entries: 1, notices: 1 });
  });

  it("answers the module's BadRequestException, ConflictException and ForbiddenException as problem+json 400, 409 and 403", async () => {
    const clientId = await consentingClient();
    const badDays = await join({ clientId, serviceId, from: '2026-12-10', to: '2026-12-09' });
    expect([badDays.status, badDays.headers['content-type'], badDays.body.code, badDays.body.detail]).toEqual([
      400,
      'application/problem+json; charset=utf-8',
      'VALIDATION_FAILED',
      "The waitlist entry's days are invalid: to must not be before from.",
    ]);

    expect((await join({ clientId, serviceId, from: '2026-12-01', to: '2026-12-31' })).status).toBe(201);
    const twice = await join({ clientId, serviceId, from: '2027-01-01', to: '2027-01-31' });
    expect([twice.status, twice.headers['content-type'], twice.body.code, twice.body.detail]).toEqual([
      409,
      'application/problem+json; charset=utf-8',
      'CONFLICT',
      'The client already waits for a slot of this service.',
    ]);

    const noConsent = await join({ clientId: await bookingClient(), serviceId, from: '2026-12-01', to: '2026-12-31' });
    expect([noConsent.status, noConsent.headers['content-type'], noConsent.body.code, noConsent.body.detail]).toEqual([
      403,
      'application/problem+json; charset=utf-8',
      // The rule refused, not the key: API_SCOPE_MISSING would send the partner to fix a key that is fine.
      'OPERATION_REFUSED',
      'The client has not consented to be contacted, so cannot wait for a slot.',
    ]);
  });

  it("checks the body against the extension's document before the module runs", async () => {
    const res = await join({ clientId: await consentingClient(), serviceId, from: 'tomorrow', to: '2026-12-31' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual([{ path: '/from', message: expect.any(String) }]);
  });

  it('answers an unknown client, service or entry with 404', async () => {
    expect((await join({ clientId: randomUUID(), serviceId, from: '2026-12-01', to: '2026-12-02' })).body.code).toBe('NOT_FOUND');
    expect((await join({ clientId: await consentingClient(), serviceId: randomUUID(), from: '2026-12-01', to: '2026-12-02' })).status).toBe(
      404,
    );
    expect((await api.get(`/waitlist/${randomUUID()}`, { key: tenant.key })).status).toBe(404);
  });

  it("keeps each business's entries to itself", async () => {
    const { tenant: other, serviceId: otherService } = await salonWithService();
    const created = await join({ clientId: await consentingClient(), serviceId, from: '2026-12-01', to: '2026-12-02' });
    expect((await api.get(`/waitlist/${created.body.id}`, { key: other.key })).status).toBe(404);
    const crossed = await join({ clientId: await consentingClient(other), serviceId: otherService, from: '2026-12-01', to: '2026-12-02' });
    expect(crossed.status).toBe(404);
  });

  it("applies the API's key, plan and scope checks to the extension's routes", async () => {
    const entry = await join({ clientId: await consentingClient(), serviceId, from: '2026-12-01', to: '2026-12-02' });
    expect((await api.post('/waitlist', { body: {}, headers: { 'Idempotency-Key': randomUUID() } })).status).toBe(401);
    expect((await api.get(`/waitlist/${entry.body.id}`)).status).toBe(401);

    const readOnly = await createKey(api.app, tenant, ['clients.read']);
    const missing = await join({ clientId: await consentingClient(), serviceId, from: '2026-12-01', to: '2026-12-02' }, { key: readOnly });
    expect([missing.status, missing.body.code]).toEqual([403, 'API_SCOPE_MISSING']);
    const writeOnly = await createKey(api.app, tenant, ['clients.write']);
    expect((await api.get(`/waitlist/${entry.body.id}`, { key: writeOnly })).status).toBe(403);

    const free = await createTenant({ plan: 'FREE' });
    expect((await join({ clientId: randomUUID(), serviceId, from: '2026-12-01', to: '2026-12-02' }, { key: free.key })).status).toBe(402);
    expect((await api.get(`/waitlist/${entry.body.id}`, { key: free.key })).status).toBe(402);
  });

  it("answers as the core's operations do: a bad Api-Version, a body too large or not JSON, a key past its rate", async () => {
    const entry = await join({ clientId: await consentingClient(), serviceId, from: '2026-12-01', to: '2026-12-02' });
    const badVersion = { 'Api-Version': '1.1.0', 'Idempotency-Key': randomUUID() };
    for (const res of [
      await api.post('/waitlist', { key: tenant.key, body: {}, headers: badVersion }),
      await api.get(`/waitlist/${entry.body.id}`, { key: tenant.key, headers: badVersion }),
    ]) {
      expect([res.status, res.body.code, res.body.errors?.[0]?.path]).toEqual([400, 'VALIDATION_FAILED', '/header/Api-Version']);
    }
    const body = { clientId: randomUUID(), serviceId, from: '2026-12-01', to: '2026-12-02' };
    const tooLarge = await api.post('/waitlist', {
      key: tenant.key,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      rawBody: JSON.stringify({ ...body, note: 'x'.repeat(70 * 1024) }),
    });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const notJson = await api.post('/waitlist', {
      key: tenant.key,
      headers: { 'Content-Type': 'application/xml', 'Idempotency-Key': randomUUID() },
      rawBody: '<clientId/>',
    });
    expect([notJson.status, notJson.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);

    // 120 requests a minute per key, the extension's routes counted with the core's.
    const busy = await createKey(api.app, tenant, ['clients.read', 'clients.write']);
    for (let i = 0; i < 120; i += 1) expect((await api.get(`/waitlist/${entry.body.id}`, { key: busy })).status).toBe(200);
    for (const res of [await api.get(`/waitlist/${entry.body.id}`, { key: busy }), await join(body, { key: busy })]) {
      expect([res.status, res.body.code]).toEqual([429, 'API_RATE_LIMIT']);
    }
  });

  it('serves its operations in the API document, beside the core ones', async () => {
    const document = await api.get('/openapi.json');
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/clients', '/waitlist', '/waitlist/{id}']));
    expect(Object.keys(document.body.webhooks)).toEqual(expect.arrayContaining(['client.created', 'waitlist.joined']));
  });

  it('lets an endpoint subscribe to waitlist.joined (admin and API), and lists the entries with `admin waitlist list`', async () => {
    const { tenant: t, serviceId: service } = await salonWithService();
    const first = await join(
      { clientId: await consentingClient(t), serviceId: service, from: '2026-12-01', to: '2026-12-02' },
      { key: t.key },
    );
    const second = await join(
      { clientId: await consentingClient(t), serviceId: service, from: '2026-12-03', to: '2026-12-04' },
      { key: t.key },
    );

    const webhook = await adminOutput(
      ['webhook', 'create', '--business', t.slug, '--url', 'http://127.0.0.1:9/notices', '--events', 'waitlist.joined'],
      config,
    );
    expect(webhook.events).toEqual(['waitlist.joined']);
    // Through the API too: the served document's notice types include the waitlist's.
    const subscribed = await api.post('/webhook-endpoints', {
      key: t.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { url: 'http://127.0.0.1:9/api-made', events: ['client.created', 'waitlist.joined'] },
    });
    expect([subscribed.status, subscribed.body.events]).toEqual([201, ['client.created', 'waitlist.joined']]);
    expect((await api.get(`/webhook-endpoints/${subscribed.body.id}`, { key: t.key })).body.events).toEqual([
      'client.created',
      'waitlist.joined',
    ]);

    const listed = await adminOutput(['waitlist', 'list', '--business', t.slug, '--service', service], config);
    expect((listed.entries as { id: string }[]).map((entry) => entry.id)).toEqual([first.body.id, second.body.id]);

    const refused = await runAdminCommand(['waitlist', 'list', '--business', t.slug, '--service', 'not-a-uuid'], config);
    expect([refused.code, refused.error.code]).toEqual([2, 'USAGE']);
  });
});
