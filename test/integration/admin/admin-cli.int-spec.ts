import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { testConfig } from '../../utils/test-config.js';
import { exampleFixture, uniqueSlug } from '../fixtures/example-fixture.js';

const config = testConfig();
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, config);

describe('admin command line', () => {
  const db = new pg.Client({ connectionString: config.DATABASE_URL });
  let folder: string;

  beforeAll(async () => {
    await db.connect();
    folder = await mkdtemp(join(tmpdir(), 'admin-cli-'));
  });

  afterAll(async () => {
    await db.end();
    await rm(folder, { recursive: true, force: true });
  });

  it('creates a business, adds a member, creates a key and revokes it', async () => {
    const slug = uniqueSlug('cli-salon');

    const created = await admin(
      'business',
      'create',
      '--slug',
      slug,
      '--name',
      'Salon CLI',
      '--timezone',
      'Europe/Lisbon',
      '--country',
      'PT',
      '--currency',
      'EUR',
      '--plan',
      'SOLO',
      '--locale',
      'pt-PT',
      '--auto-confirm',
      'false',
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    // One object, pretty-printed with two spaces.
    expect(created.stdout).toBe(`${JSON.stringify(created.json, null, 2)}\n`);
    expect(created.json).toMatchObject({ slug, name: 'Salon CLI', plan: 'SOLO', locale: 'pt-PT', autoConfirm: false });

    const member = await admin(
      'business',
      'member',
      'add',
      '--business',
      slug,
      '--name',
      'Ana Costa',
      '--email',
      'Ana@Salon.example',
      '--role',
      'OWNER',
    );
    expect(member.code).toBe(0);
    expect(member.json).toMatchObject({ business: slug, email: 'ana@salon.example', role: 'OWNER' });

    const key = await admin(
      'key',
      'create',
      '--business',
      slug,
      '--member',
      'ana@salon.example',
      '--name',
      'Website',
      '--scopes',
      'appointments.read, services.read',
    );
    expect(key.code).toBe(0);
    expect(Object.keys(key.json)).toEqual(['key', 'prefix', 'id', 'name', 'scopes', 'apiVersion', 'business', 'member', 'createdAt']);
    expect(key.json).toMatchObject({
      key: expect.stringMatching(/^rk_live_[0-9A-Za-z]{38}$/),
      name: 'Website',
      scopes: ['appointments.read', 'services.read'],
      business: slug,
      member: 'ana@salon.example',
    });
    const prefix = key.json.prefix as string;
    expect(prefix).toBe((key.json.key as string).slice(0, 12));

    const revoked = await admin('key', 'revoke', '--business', slug, '--prefix', prefix);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ business: slug, id: key.json.id, prefix, revoked: 1 });
    const { rows } = await db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [key.json.id]);
    expect(rows[0].revoked_at).toBeInstanceOf(Date);

    const again = await admin('key', 'revoke', '--business', slug, '--prefix', prefix);
    expect(again.code).toBe(1);
    expect(again.error.code).toBe('NOT_FOUND');
  });

  it('revokes one key by id, and refuses a prefix that several active keys share, naming their ids', async () => {
    const slug = uniqueSlug('cli-revoke');
    const business = ['--timezone', 'Europe/Lisbon', '--country', 'PT', '--currency', 'EUR', '--plan', 'SOLO'];
    expect((await admin('business', 'create', '--slug', slug, '--name', 'Revoke', ...business)).code).toBe(0);
    const member = ['--business', slug, '--email', 'owner@revoke.example', '--name', 'Owner', '--role', 'OWNER'];
    expect((await admin('business', 'member', 'add', ...member)).code).toBe(0);
    const create = async () =>
      (await admin('key', 'create', '--business', slug, '--member', 'owner@revoke.example', '--name', 'K', '--scopes', 'services.read'))
        .json as { id: string; prefix: string };
    const [first, second] = [await create(), await create()];
    // Prefixes are 4 random characters: make the two keys share one, as they can by chance.
    await db.query('UPDATE api_keys SET prefix = $1 WHERE id = $2', [first.prefix, second.id]);

    const ambiguous = await admin('key', 'revoke', '--business', slug, '--prefix', first.prefix);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.error.code).toBe('VALIDATION_FAILED');
    expect(ambiguous.error.errors).toEqual([{ path: '/prefix', message: expect.stringMatching(/^2 active keys have the prefix/) }]);
    for (const id of [first.id, second.id]) expect(ambiguous.error.errors![0].message).toContain(id);
    const active = async () =>
      (await db.query('SELECT id FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL ORDER BY id', [first.prefix])).rows.map(
        (r) => r.id,
      );
    expect(await active()).toEqual([first.id, second.id].sort());

    const byId = await admin('key', 'revoke', '--business', slug, '--id', second.id);
    expect(byId.json).toEqual({ business: slug, id: second.id, prefix: first.prefix, revoked: 1 });
    expect(await active()).toEqual([first.id]);
    // Now the prefix names one key: it still works.
    expect((await admin('key', 'revoke', '--business', slug, '--prefix', first.prefix)).json).toMatchObject({ id: first.id, revoked: 1 });

    expect((await admin('key', 'revoke', '--business', slug, '--id', second.id)).error.code).toBe('NOT_FOUND');
    expect((await admin('key', 'revoke', '--business', slug, '--id', 'not-a-uuid')).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/id', message: expect.any(String) }],
    });
    const both = await admin('key', 'revoke', '--business', slug, '--id', first.id, '--prefix', first.prefix);
    expect(both.code).toBe(2);
    expect(both.error.code).toBe('USAGE');
    expect((await admin('key', 'revoke', '--business', slug)).code).toBe(2);
  });

  it('prints a generic message and a request id on an unexpected error, not what PostgreSQL said', async () => {
    const missing = new URL(config.DATABASE_URL);
    missing.pathname = '/no_such_database_for_admin_test';
    const failed = await runAdminCommand(['key', 'revoke', '--business', 'x', '--id', '00000000-0000-4000-8000-000000000000'], {
      ...config,
      DATABASE_URL: missing.toString(),
    });
    expect(failed.code).toBe(1);
    expect(failed.error).toEqual({
      code: 'INTERNAL',
      detail: expect.stringContaining(failed.error.requestId as string),
      requestId: expect.any(String),
    });
    expect(failed.stderr).not.toMatch(/no_such_database|does not exist|postgres/i);

    const debugging = await runAdminCommand(['key', 'revoke', '--business', 'x', '--id', '00000000-0000-4000-8000-000000000000'], {
      ...config,
      DATABASE_URL: missing.toString(),
      LOG_LEVEL: 'debug',
    });
    expect(debugging.error.debug).toMatch(/no_such_database_for_admin_test/);
  });

  it('changes the plan of a business', async () => {
    const slug = uniqueSlug('cli-plan');
    await admin(
      'business',
      'create',
      '--slug',
      slug,
      '--name',
      'Plan Salon',
      '--timezone',
      'Europe/Lisbon',
      '--country',
      'PT',
      '--currency',
      'EUR',
      '--plan',
      'TEAM',
    );

    const changed = await admin('business', 'plan', '--business', slug, '--plan', 'FREE');

    expect(changed.code).toBe(0);
    expect(changed.json).toMatchObject({ slug, plan: 'FREE' });
    const { rows } = await db.query('SELECT plan FROM businesses WHERE slug = $1', [slug]);
    expect(rows).toEqual([{ plan: 'FREE' }]);
  });

  it('answers a usage error with exit code 2 and a JSON report, before touching the database', async () => {
    const missing = await admin('business', 'create', '--slug', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.error).toEqual({ code: 'USAGE', detail: expect.stringMatching(/required option '--name <name>'/) });

    const badPlan = await admin('business', 'plan', '--business', 'x', '--plan', 'GOLD');
    expect(badPlan.code).toBe(2);
    expect(badPlan.error.detail).toMatch(/Allowed choices are FREE, SOLO, TEAM/);

    expect((await admin('frobnicate')).error).toEqual({ code: 'USAGE', detail: expect.stringMatching(/unknown command/) });
    expect((await admin('key')).code).toBe(2);
  });

  it('answers an unknown business with exit code 1 and the domain error on stderr', async () => {
    const result = await admin('business', 'plan', '--business', 'no-such-business-here', '--plan', 'TEAM');

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.error).toEqual({ code: 'NOT_FOUND', detail: 'No business has the slug no-such-business-here.' });
  });

  it('refuses a second member with the same e-mail, and a malformed e-mail, naming the field', async () => {
    const slug = uniqueSlug('cli-members');
    await admin(
      'business',
      'create',
      '--slug',
      slug,
      '--name',
      'Salon Members',
      '--timezone',
      'Europe/Lisbon',
      '--country',
      'PT',
      '--currency',
      'EUR',
      '--plan',
      'TEAM',
    );
    const add = (email: string) =>
      admin('business', 'member', 'add', '--business', slug, '--name', 'Ana', '--email', email, '--role', 'OWNER');
    expect((await add('ana@salon.example')).code).toBe(0);
    for (const email of ['ANA@salon.example', 'not-an-email']) {
      const refused = await add(email);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.error.code).toBe('VALIDATION_FAILED');
      expect(refused.error.errors?.[0]?.path).toBe('/email');
    }
  });

  it('loads a fixture file and prints the refs map; a bad file is refused with the entry named', async () => {
    const slug = uniqueSlug('cli-fixture');
    const good = join(folder, 'good.json');
    await writeFile(good, JSON.stringify(exampleFixture(slug)));

    const loaded = await admin('fixtures', 'load', good);
    expect(loaded.code).toBe(0);
    expect(loaded.json).toMatchObject({ businesses: { salon: { slug, keys: { site: { prefix: expect.any(String) } } } } });

    const fixture = exampleFixture(uniqueSlug('cli-bad'));
    fixture.businesses[0].clients![0].phone = '912345678';
    const bad = join(folder, 'bad.json');
    await writeFile(bad, JSON.stringify(fixture));
    const refused = await admin('fixtures', 'load', bad);
    expect(refused.code).toBe(1);
    expect(refused.error).toEqual({
      code: 'VALIDATION_FAILED',
      detail: 'businesses[0].clients[0] (ref "joao"): phone must start with + and the country code',
      errors: [{ path: '/businesses/0/clients/0/phone', message: refused.error.detail }],
    });

    const unreadable = await admin('fixtures', 'load', join(folder, 'missing.json'));
    expect(unreadable.code).toBe(1);
    expect(unreadable.error.detail).toMatch(/^Cannot read .*missing\.json/);
  });

  it('migrate reports that nothing is pending on a migrated database', async () => {
    const result = await admin('migrate');
    expect(result.code).toBe(0);
    expect(result.json).toEqual({ applied: [] });
  });
});
