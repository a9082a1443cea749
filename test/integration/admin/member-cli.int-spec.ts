import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';
import { uniqueSlug } from '../fixtures/example-fixture.js';

/** `admin member list`, `member sign-in-link` and `key list` (docs/operations-interface.md). */
let context: TestContext;
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, context.config);

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
});
afterAll(() => context.close());

async function business(): Promise<string> {
  const slug = uniqueSlug('cli-member');
  const settings = ['--timezone', 'Europe/Lisbon', '--country', 'PT', '--currency', 'EUR', '--plan', 'SOLO'];
  expect((await admin('business', 'create', '--slug', slug, '--name', 'Members', ...settings)).code).toBe(0);
  for (const role of ['OWNER', 'STAFF']) {
    const email = `${role.toLowerCase()}@${slug}.example`;
    expect((await admin('business', 'member', 'add', '--business', slug, '--email', email, '--name', role, '--role', role)).code).toBe(0);
  }
  return slug;
}

describe('admin member and key list commands', () => {
  it('member list prints the members with their roles, oldest first', async () => {
    const slug = await business();
    const run = await admin('member', 'list', '--business', slug);
    expect(run.code).toBe(0);
    expect(run.json.business).toBe(slug);
    expect(run.json.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [`owner@${slug}.example`, 'OWNER'],
      [`staff@${slug}.example`, 'STAFF'],
    ]);
  });

  it('member sign-in-link prints a console link for an OWNER, valid 15 minutes', async () => {
    const slug = await business();
    const run = await admin('member', 'sign-in-link', '--business', slug, '--email', `Owner@${slug}.example`);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json).sort()).toEqual(['business', 'email', 'expiresAt', 'url']);
    expect(run.json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/sign-in\/confirm\?token=[A-Za-z0-9]+$/);
    expect(run.json.email).toBe(`owner@${slug}.example`);
    const minutes = (Date.parse(run.json.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it('key list prints the active keys, live and test, without the keys themselves', async () => {
    const slug = await business();
    const owner = `owner@${slug}.example`;
    const live = await admin('key', 'create', '--business', slug, '--member', owner, '--name', 'Live', '--scopes', 'services.read');
    const test = await admin(
      'key',
      'create',
      '--business',
      slug,
      '--member',
      owner,
      '--name',
      'Test',
      '--scopes',
      'services.read',
      '--test',
    );
    const revoked = await admin('key', 'create', '--business', slug, '--member', owner, '--name', 'Gone', '--scopes', 'services.read');
    expect((await admin('key', 'revoke', '--business', slug, '--id', revoked.json.id)).code).toBe(0);
    const run = await admin('key', 'list', '--business', slug);
    expect(run.code).toBe(0);
    const listed = run.json.keys as { id: string; mode: string; name: string }[];
    expect(listed.map((k) => [k.id, k.mode, k.name]).sort()).toEqual(
      [
        [live.json.id, 'live', 'Live'],
        [test.json.id, 'test', 'Test'],
      ].sort(),
    );
    expect(run.stdout).not.toContain(live.json.key);
    expect((await admin('key', 'list', '--business', 'no-such-business')).error.code).toBe('NOT_FOUND');
  });
});
