import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { hashApiKey } from '#core/api-keys/api-key-format.js';
import { ApiKeysRepository } from '#core/api-keys/api-keys.repository.js';
import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';
import { uniqueSlug } from '../fixtures/example-fixture.js';

/**
 * Version pinning at the admin command line (docs/design-record.md#d22, docs/operations-interface.md):
 * `key create --api-version`, `key api-version`, `webhook create --api-version`, and a fixture
 * key's and webhook endpoint's `apiVersion`.
 */
let context: TestContext;
let app: INestApplicationContext;
let folder: string;
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, context.config);

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
  app = context.app;
  folder = await mkdtemp(join(tmpdir(), 'key-api-version-'));
});
afterAll(async () => {
  await context.close();
  await rm(folder, { recursive: true, force: true });
});

/** What a request with this key would be answered in, asked of the database now (no cache). */
const lookedUp = async (rawKey: string) =>
  (await app.get(ApiKeysRepository).findActiveByHash(hashApiKey(context.config.API_KEY_PEPPER, rawKey)))?.apiVersion;
const stored = async (table: 'api_keys' | 'webhook_endpoints', id: string): Promise<string> =>
  (await context.sql.query<{ api_version: string }[]>(`SELECT api_version FROM ${table} WHERE id = $1`, [id]))[0].api_version;

async function business(): Promise<string> {
  const slug = uniqueSlug('cli-pin');
  const settings = ['--timezone', 'Europe/Lisbon', '--country', 'PT', '--currency', 'EUR', '--plan', 'SOLO'];
  expect((await admin('business', 'create', '--slug', slug, '--name', 'Pin', ...settings)).code).toBe(0);
  const owner = ['--business', slug, '--email', `owner@${slug}.example`, '--name', 'Owner', '--role', 'OWNER'];
  expect((await admin('business', 'member', 'add', ...owner)).code).toBe(0);
  return slug;
}

const createKey = (slug: string, ...more: string[]) =>
  admin('key', 'create', '--business', slug, '--member', `owner@${slug}.example`, '--name', 'K', '--scopes', 'services.read', ...more);

describe('admin key create --api-version and key api-version', () => {
  it('pins a key to the current version by default, or to the one given', async () => {
    const slug = await business();
    const current = await createKey(slug);
    expect(current.code).toBe(0);
    expect(current.json.apiVersion).toBe(CURRENT_API_VERSION);
    expect(await stored('api_keys', current.json.id)).toBe(CURRENT_API_VERSION);
    expect(await lookedUp(current.json.key)).toBe(CURRENT_API_VERSION);

    const older = await createKey(slug, '--api-version', '1.2.0');
    expect(older.code).toBe(0);
    expect(older.json).toMatchObject({ apiVersion: '1.2.0', business: slug });
    expect(await stored('api_keys', older.json.id)).toBe('1.2.0');
    expect(await lookedUp(older.json.key)).toBe('1.2.0');

    const test = await createKey(slug, '--test', '--api-version', '1.3.0');
    expect(test.json).toMatchObject({ apiVersion: '1.3.0', mode: 'test' });
  });

  it('key api-version moves a key, printed as key create prints it less the key; the lookup answers it at once', async () => {
    const slug = await business();
    const created = (await createKey(slug)).json;
    const moved = await admin('key', 'api-version', '--business', slug, '--id', created.id, '--api-version', '1.3.0');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe(`${JSON.stringify(moved.json, null, 2)}\n`);
    expect(moved.json).toEqual({
      prefix: created.prefix,
      id: created.id,
      name: 'K',
      scopes: ['services.read'],
      apiVersion: '1.3.0',
      business: slug,
      createdAt: created.createdAt,
    });
    expect(await lookedUp(created.key)).toBe('1.3.0');

    const test = (await createKey(slug, '--test')).json;
    const movedTest = await admin('key', 'api-version', '--business', slug, '--id', test.id, '--api-version', '1.2.0');
    expect(movedTest.json).toMatchObject({ id: test.id, apiVersion: '1.2.0', mode: 'test' });
    expect(await lookedUp(test.key)).toBe('1.2.0');
  });

  it("refuses an unknown version with the service's rule naming the published ones, and a revoked or unknown key", async () => {
    const slug = await business();
    const created = (await createKey(slug)).json;

    // The rule the console's form shows beside its field (docs/design-record.md#d29), not a usage error of its own.
    const unknown = await admin('key', 'api-version', '--business', slug, '--id', created.id, '--api-version', '1.6.0');
    expect(unknown.code).toBe(1);
    expect(unknown.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/apiVersion', message: `unknown API version 1.6.0; published: ${API_VERSIONS.join(', ')}` }],
    });
    expect((await createKey(slug, '--api-version', 'latest')).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/apiVersion', message: `unknown API version latest; published: ${API_VERSIONS.join(', ')}` }],
    });
    expect((await admin('key', 'api-version', '--business', slug, '--id', created.id)).code).toBe(2);
    expect(await stored('api_keys', created.id)).toBe(CURRENT_API_VERSION);

    expect((await admin('key', 'revoke', '--business', slug, '--id', created.id)).code).toBe(0);
    const revoked = await admin('key', 'api-version', '--business', slug, '--id', created.id, '--api-version', '1.2.0');
    expect(revoked.code).toBe(1);
    expect(revoked.error).toMatchObject({ code: 'NOT_FOUND', detail: `No active key of ${slug} has the id ${created.id}.` });
    const missing = await admin(
      'key',
      'api-version',
      '--business',
      slug,
      '--id',
      '00000000-0000-4000-8000-000000000000',
      '--api-version',
      '1.2.0',
    );
    expect(missing.error.code).toBe('NOT_FOUND');
    expect((await admin('key', 'api-version', '--business', slug, '--id', 'nope', '--api-version', '1.2.0')).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/id', message: expect.any(String) }],
    });
  });
});

describe('admin key api-version --prefix', () => {
  it('names the key by the prefix fixtures and key list print, a test key by its rk_test_ prefix; exactly one of --id and --prefix', async () => {
    const slug = await business();
    const live = (await createKey(slug)).json;
    const test = (await createKey(slug, '--test')).json;

    const moved = await admin('key', 'api-version', '--business', slug, '--prefix', live.prefix, '--api-version', '1.2.0');
    expect(moved.code).toBe(0);
    expect(moved.json).toMatchObject({ id: live.id, prefix: live.prefix, apiVersion: '1.2.0' });
    expect(await lookedUp(live.key)).toBe('1.2.0');
    const movedTest = await admin('key', 'api-version', '--business', slug, '--prefix', test.prefix, '--api-version', '1.3.0');
    expect(movedTest.json).toMatchObject({ id: test.id, apiVersion: '1.3.0', mode: 'test' });
    expect(await lookedUp(test.key)).toBe('1.3.0');

    const both = await admin('key', 'api-version', '--business', slug, '--id', live.id, '--prefix', live.prefix, '--api-version', '1.4.0');
    expect(both.error).toEqual({ code: 'USAGE', detail: expect.stringContaining('exactly one of --id and --prefix') });
    expect((await admin('key', 'api-version', '--business', slug, '--api-version', '1.4.0')).error.code).toBe('USAGE');
    const unknown = await admin('key', 'api-version', '--business', slug, '--prefix', 'rk_live_None', '--api-version', '1.4.0');
    expect(unknown.error).toMatchObject({ code: 'NOT_FOUND', detail: `No active key of ${slug} has the prefix rk_live_None.` });
    expect(await stored('api_keys', live.id)).toBe('1.2.0');
  });
});

describe('admin webhook create --api-version', () => {
  it('pins the endpoint to the current version by default, or to the one given', async () => {
    const slug = await business();
    const create = (...more: string[]) =>
      admin('webhook', 'create', '--business', slug, '--url', 'https://hooks.example/in', '--events', 'client.created', ...more);
    const current = await create();
    expect(current.json.apiVersion).toBe(CURRENT_API_VERSION);
    expect(await stored('webhook_endpoints', current.json.id)).toBe(CURRENT_API_VERSION);
    const older = await create('--api-version', '1.2.0');
    expect(older.json.apiVersion).toBe('1.2.0');
    expect(await stored('webhook_endpoints', older.json.id)).toBe('1.2.0');
    expect((await create('--api-version', '9')).error.code).toBe('USAGE');

    const listed = (await admin('webhook', 'list', '--business', slug)).json.webhooks as { id: string; apiVersion: string }[];
    expect(listed.map((w) => [w.id, w.apiVersion])).toEqual([
      [current.json.id, CURRENT_API_VERSION],
      [older.json.id, '1.2.0'],
    ]);
  });
});

describe('fixtures load: a key’s apiVersion', () => {
  it('pins the key to it, the current version when left out; an unknown one is refused', async () => {
    const slug = uniqueSlug('fixture-pin');
    const fixture = (apiVersion: unknown) => ({
      businesses: [
        {
          ref: 'b',
          slug,
          name: 'Pin',
          timezone: 'Europe/Lisbon',
          country: 'PT',
          currency: 'EUR',
          plan: 'SOLO',
          members: [{ ref: 'o', name: 'Owner', email: 'o@pin.example', role: 'OWNER' }],
          keys: [
            { ref: 'old', member: 'o', name: 'Old', scopes: ['services.read'], apiVersion },
            { ref: 'new', member: 'o', name: 'New', scopes: ['services.read'] },
          ],
        },
      ],
    });
    const refused = join(folder, 'refused.json');
    await writeFile(refused, JSON.stringify(fixture('1.1.0')));
    const bad = await admin('fixtures', 'load', refused);
    expect(bad.code).toBe(1);
    expect(bad.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [
        {
          path: '/businesses/0/keys/0/apiVersion',
          message: `businesses[0].keys[0] (ref "old"): apiVersion must be one of ${API_VERSIONS.map((v) => `"${v}"`).join(', ')}`,
        },
      ],
    });

    const file = join(folder, 'pinned.json');
    await writeFile(file, JSON.stringify(fixture('1.2.0')));
    const loaded = await admin('fixtures', 'load', file);
    expect(loaded.code).toBe(0);
    const keys = loaded.json.businesses.b.keys as Record<string, { key: string }>;
    expect(await lookedUp(keys.old.key)).toBe('1.2.0');
    expect(await lookedUp(keys.new.key)).toBe(CURRENT_API_VERSION);
  });
});

describe('fixtures load: a webhook endpoint’s apiVersion', () => {
  it('pins the endpoint to it, the current version when left out; an unknown one is refused', async () => {
    const slug = uniqueSlug('fixture-hook-pin');
    const fixture = (apiVersion: unknown) => ({
      businesses: [
        {
          ref: 'b',
          slug,
          name: 'Pin',
          timezone: 'Europe/Lisbon',
          country: 'PT',
          currency: 'EUR',
          plan: 'SOLO',
          webhooks: [
            { ref: 'old', url: 'https://hooks.pin.example/old', events: ['appointment.created'], apiVersion },
            { ref: 'new', url: 'https://hooks.pin.example/new', events: ['appointment.created'] },
          ],
        },
      ],
    });
    const refused = join(folder, 'hook-refused.json');
    await writeFile(refused, JSON.stringify(fixture('1.6.0')));
    const bad = await admin('fixtures', 'load', refused);
    expect(bad.code).toBe(1);
    expect(bad.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [
        {
          path: '/businesses/0/webhooks/0/apiVersion',
          message: `businesses[0].webhooks[0] (ref "old"): apiVersion must be one of ${API_VERSIONS.map((v) => `"${v}"`).join(', ')}`,
        },
      ],
    });

    const file = join(folder, 'hook-pinned.json');
    await writeFile(file, JSON.stringify(fixture('1.2.0')));
    const loaded = await admin('fixtures', 'load', file);
    expect(loaded.code).toBe(0);
    const hooks = loaded.json.businesses.b.webhooks as Record<string, { id: string }>;
    expect(await stored('webhook_endpoints', hooks.old.id)).toBe('1.2.0');
    expect(await stored('webhook_endpoints', hooks.new.id)).toBe(CURRENT_API_VERSION);
    const listed = (await admin('webhook', 'list', '--business', slug)).json.webhooks as { id: string; apiVersion: string }[];
    expect(Object.fromEntries(listed.map((w) => [w.id, w.apiVersion]))).toEqual({
      [hooks.old.id]: '1.2.0',
      [hooks.new.id]: CURRENT_API_VERSION,
    });
  });
});
