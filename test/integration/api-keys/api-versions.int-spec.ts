import type { INestApplicationContext } from '@nestjs/common';
import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { hashApiKey } from '#core/api-keys/api-key-format.js';
import { ApiKeysRepository } from '#core/api-keys/api-keys.repository.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { NoticeDeliveriesRepository } from '#core/notices/delivery/notice-deliveries.repository.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { newId } from '#database/new-id.js';
import { recordNotice } from '../../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * Version pinning (docs/design-record.md#d22) at the services: a key is pinned to the version it
 * is made with, else the current one; `setApiVersion` moves it, and the database lookup answers
 * the new version at once (a cached one within AUTH_CACHE_TTL_MS, as a revocation); an endpoint
 * is pinned to the version its creator chose, else to the creating key's, and the delivery the
 * worker loads for sending carries it.
 */
const TTL_MS = 200;
let context: TestContext;
let app: INestApplicationContext;

beforeAll(async () => {
  context = await startTestContext({ app: 'admin', config: { AUTH_CACHE_TTL_MS: String(TTL_MS) } });
  app = context.app;
});
afterAll(() => context.close());

const keys = () => app.get(ApiKeysService);
/** The lookup a request whose key is not cached runs: the database's answer, now. */
const lookup = (rawKey: string) => app.get(ApiKeysRepository).findActiveByHash(hashApiKey(context.config.API_KEY_PEPPER, rawKey));
const storedVersion = async (id: string): Promise<string> =>
  (await context.sql.query<{ api_version: string }[]>('SELECT api_version FROM api_keys WHERE id = $1', [id]))[0].api_version;

async function business(): Promise<SeededBusiness> {
  return seed({ plan: 'SOLO' });
}

const newKey = (b: SeededBusiness, extra: { apiVersion?: string; test?: boolean } = {}) =>
  keys().create({ businessSlug: b.slug, memberEmail: b.ownerEmail!, name: 'Pinned', scopes: ['services.read'], ...extra });

/** The refusal `work` ends in. */
async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('a key’s API version', () => {
  it('is the current one when none is given, by the service and by a fixture', async () => {
    const b = await business();
    const created = await newKey(b);
    expect(created.apiVersion).toBe(CURRENT_API_VERSION);
    expect(await storedVersion(created.id)).toBe(CURRENT_API_VERSION);
    expect(await lookup(created.key)).toMatchObject({ keyId: created.id, apiVersion: CURRENT_API_VERSION });
    // The seed's key is a fixture key without apiVersion.
    expect(await keys().authenticate(b.keys.owner.key)).toMatchObject({ apiVersion: CURRENT_API_VERSION });
  });

  it('is the one given, by the service and by a fixture key’s apiVersion', async () => {
    const b = await business();
    const created = await newKey(b, { apiVersion: '1.2.0' });
    expect(created.apiVersion).toBe('1.2.0');
    expect(await lookup(created.key)).toMatchObject({ apiVersion: '1.2.0' });

    const fromFixture = await seed({
      plan: 'SOLO',
      members: [{ ref: 'o', name: 'Owner', email: 'owner@pinned-fixture.example', role: 'OWNER' }],
      keys: [{ ref: 'old', member: 'o', name: 'Old', scopes: ['services.read'], apiVersion: '1.3.0' }],
    });
    expect(await lookup(fromFixture.keys.old.key)).toMatchObject({ apiVersion: '1.3.0' });
  });

  it('refuses a version that is not published, naming the published ones', async () => {
    const b = await business();
    const error = await refusal(newKey(b, { apiVersion: '1.6.0' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors).toEqual([
      { path: '/apiVersion', message: `unknown API version 1.6.0; published: ${API_VERSIONS.join(', ')}` },
    ]);
  });

  it('is moved by setApiVersion: the lookup answers it at once, a cached answer within the cache’s time', async () => {
    const b = await business();
    const created = await newKey(b);
    expect(await keys().authenticate(created.key)).toMatchObject({ apiVersion: CURRENT_API_VERSION });

    const moved = await keys().setApiVersion(b.slug, created.id, '1.2.0');
    expect(moved).toEqual({
      id: created.id,
      prefix: created.prefix,
      name: 'Pinned',
      scopes: ['services.read'],
      apiVersion: '1.2.0',
      business: b.slug,
      createdAt: created.createdAt,
      mode: 'live',
    });
    expect(await storedVersion(created.id)).toBe('1.2.0');
    expect(await lookup(created.key)).toMatchObject({ keyId: created.id, apiVersion: '1.2.0' });
    // As a revocation: the answer cached before the move lasts at most AUTH_CACHE_TTL_MS (docs/design-record.md#d2).
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect(await keys().authenticate(created.key)).toMatchObject({ apiVersion: '1.2.0' });
  });

  it('moves a test key as well, found by its id through the live business', async () => {
    const b = await business();
    const created = await newKey(b, { test: true });
    const moved = await keys().setApiVersion(b.slug, created.id, '1.3.0');
    expect(moved).toMatchObject({ id: created.id, apiVersion: '1.3.0', mode: 'test' });
    expect(await lookup(created.key)).toMatchObject({ apiVersion: '1.3.0', mode: 'test' });
  });

  it('refuses an unknown version, an id that is not a UUID, and a key that is revoked or not the business’s', async () => {
    const b = await business();
    const other = await business();
    const created = await newKey(b);

    const unknown = await refusal(keys().setApiVersion(b.slug, created.id, '2.0'));
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.fieldErrors).toEqual([
      { path: '/apiVersion', message: `unknown API version 2.0; published: ${API_VERSIONS.join(', ')}` },
    ]);
    expect(await storedVersion(created.id)).toBe(CURRENT_API_VERSION);

    expect((await refusal(keys().setApiVersion(b.slug, 'not-a-uuid', '1.2.0'))).fieldErrors).toEqual([
      { path: '/id', message: expect.any(String) },
    ]);
    expect((await refusal(keys().setApiVersion(other.slug, created.id, '1.2.0'))).code).toBe('NOT_FOUND');
    await keys().revoke(b.slug, { id: created.id });
    const revoked = await refusal(keys().setApiVersion(b.slug, created.id, '1.2.0'));
    expect(revoked.code).toBe('NOT_FOUND');
    expect(revoked.message).toBe(`No active key of ${b.slug} has the id ${created.id}.`);
    expect(await storedVersion(created.id)).toBe(CURRENT_API_VERSION);
  });
});

describe('a webhook endpoint’s API version', () => {
  const endpoints = () => app.get(WebhookEndpointsService);
  const url = 'https://hooks.example/in';

  it('is the creating key’s unless the body names one, and the delivery loaded for sending carries it', async () => {
    const b = await business();
    const created = await newKey(b, { apiVersion: '1.3.0' });
    const key = (await keys().authenticate(created.key))!;
    expect(key.apiVersion).toBe('1.3.0');

    const byKey = await endpoints().create(key.businessId, { url, events: ['client.created'] }, key.tenantId, key.apiVersion);
    expect(byKey.apiVersion).toBe('1.3.0');
    const chosen = await endpoints().create(
      key.businessId,
      { url, events: ['client.created'], apiVersion: '1.2.0' },
      key.tenantId,
      key.apiVersion,
    );
    expect(chosen.apiVersion).toBe('1.2.0');
    expect(await endpoints().get(b.id, chosen.id)).toMatchObject({ apiVersion: '1.2.0' });
    expect((await endpoints().list(b.id)).map((e) => [e.id, e.apiVersion])).toEqual([
      [byKey.id, '1.3.0'],
      [chosen.id, '1.2.0'],
    ]);

    const notice = await recordNotice(app, { id: b.id, slug: b.slug });
    const deliveries = app.get(NoticeDeliveriesRepository);
    const now = new Date();
    const refs = await deliveries.insertMany(
      [byKey, chosen].map((endpoint) => ({
        id: newId(),
        businessId: b.id,
        noticeId: notice.id,
        endpointId: endpoint.id,
        status: 'PENDING' as const,
        attempts: 0,
        nextAttemptAt: now,
        deliveredAt: null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const toSend = await deliveries.findManyForSending(refs);
    expect(toSend.map((d) => [d!.endpointId, d!.endpoint.apiVersion])).toEqual(
      expect.arrayContaining([
        [byKey.id, '1.3.0'],
        [chosen.id, '1.2.0'],
      ]),
    );
  });

  it('refuses a version that is not published, and makes nothing', async () => {
    const b = await business();
    const error = await refusal(
      endpoints().create(b.id, { url, events: ['client.created'], apiVersion: '0.9.0' }, b.id, CURRENT_API_VERSION),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors).toEqual([
      { path: '/apiVersion', message: `unknown API version 0.9.0; published: ${API_VERSIONS.join(', ')}` },
    ]);
    expect(await endpoints().list(b.id)).toEqual([]);
  });
});
