import { hashApiKey } from '#core/api-keys/api-key-format.js';
import { ApiKeysRepository } from '#core/api-keys/api-keys.repository.js';
import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/** `admin key roll` (docs/operations-interface.md): the service's roll, the key named by --id or --prefix. */
let context: TestContext;
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, context.config);

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
});
afterAll(() => context.close());

const expiresAt = async (rawKey: string) =>
  (await context.app.get(ApiKeysRepository).findActiveByHash(hashApiKey(context.config.API_KEY_PEPPER, rawKey)))?.expiresAt;

describe('admin key roll', () => {
  it('prints the new key once and the old key with its expiry; by prefix as by id', async () => {
    const business = await seed({ scopes: ['services.read'] });
    const { key, prefix } = business.keys.owner;
    const member = ['--business', business.slug, '--member', business.ownerEmail!];

    const rolled = await admin('key', 'roll', ...member, '--prefix', prefix, '--expire-old-in', '24h');
    expect(rolled.code).toBe(0);
    expect(rolled.json).toMatchObject({
      key: expect.stringMatching(/^rk_live_/),
      name: 'Test key',
      scopes: ['services.read'],
      mode: 'live',
      rolled: { prefix, expiresAt: expect.any(String) },
    });
    const json = rolled.json as { createdAt: string; key: string; id: string; rolled: { expiresAt: string } };
    expect(Date.parse(json.rolled.expiresAt) - Date.parse(json.createdAt)).toBe(24 * 60 * 60 * 1000);
    expect((await expiresAt(key))?.toISOString()).toBe(json.rolled.expiresAt);

    const again = await admin('key', 'roll', ...member, '--id', json.id, '--expire-old-in', 'now');
    expect(again.code).toBe(0);
    expect((await expiresAt(json.key))?.toISOString()).toBe((again.json as { createdAt: string }).createdAt);
  });

  it('refuses a life it does not offer at /oldKeyExpiresIn, and --id with --prefix as USAGE', async () => {
    const business = await seed({ scopes: ['services.read'] });
    const member = ['--business', business.slug, '--member', business.ownerEmail!];
    const life = await admin('key', 'roll', ...member, '--prefix', business.keys.owner.prefix, '--expire-old-in', '2h');
    expect(life.code).toBe(1);
    expect(life.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/oldKeyExpiresIn', message: 'must be one of now, 1h, 24h, 7d' }],
    });
    const both = await admin('key', 'roll', ...member, '--id', 'x', '--prefix', 'y', '--expire-old-in', 'now');
    expect(both.error.code).toBe('USAGE');
    expect(await expiresAt(business.keys.owner.key)).toBeNull();
  });
});
