import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { runAdminCommand } from '../utils/admin-runner.js';
import { ConsoleClient } from '../utils/console-client.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';
import { testSql } from '../utils/test-context.js';

/**
 * Budgets per business (docs/design-record.md#d28): at most 10 active keys per mode, in `admin key
 * create` and in the console alike; at most 20 keys made by the console an hour; no sandbox made
 * or reset for a FREE business.
 */
let api: E2eApi;
const config = testConfig();

beforeAll(async () => {
  api = await E2eApi.start(config);
});
afterAll(async () => {
  await api.close();
});

const keys = () => api.app.get(ApiKeysService);

/** A SOLO salon with its owner and no key. */
async function salon(): Promise<SeededBusiness & { owner: string }> {
  const business = await seed({ plan: 'SOLO', keys: [] });
  return { ...business, owner: business.ownerEmail! };
}

const makeKeys = async (s: { slug: string; owner: string }, count: number, test = false) => {
  for (let i = 0; i < count; i += 1) {
    await keys().create({ businessSlug: s.slug, memberEmail: s.owner, name: `Key ${i}`, scopes: ['services.read'], test });
  }
};

const activeKeys = async (slug: string) => (await keys().list(slug)).keys;

const adminCreate = (s: { slug: string; owner: string }, ...extra: string[]) =>
  runAdminCommand(
    ['key', 'create', '--business', s.slug, '--member', s.owner, '--name', 'Eleventh', '--scopes', 'services.read', ...extra],
    config,
  );

describe('at most 10 active keys per mode', () => {
  it('`admin key create` refuses the eleventh with exit code 1 and KEY_LIMIT, per mode, and makes one again once a key is revoked', async () => {
    const s = await salon();
    await makeKeys(s, 10);

    const eleventh = await adminCreate(s);
    expect({ code: eleventh.code, stdout: eleventh.stdout, error: eleventh.error }).toEqual({
      code: 1,
      stdout: '',
      error: {
        code: 'KEY_LIMIT',
        detail: `${s.slug} has 10 active live keys; a business holds at most 10 per mode (live, test). Revoke one to make another.`,
      },
    });
    expect(await activeKeys(s.slug)).toHaveLength(10);

    // The test mode has its own ten.
    const test = await adminCreate(s, '--test');
    expect({ code: test.code, mode: test.json.mode }).toEqual({ code: 0, mode: 'test' });

    const [oldest] = (await activeKeys(s.slug)).filter((key) => key.mode === 'live');
    expect((await runAdminCommand(['key', 'revoke', '--business', s.slug, '--id', oldest.id], config)).code).toBe(0);
    expect((await adminCreate(s)).code).toBe(0);
    expect((await adminCreate(s)).error?.code).toBe('KEY_LIMIT');
  });

  it('a business over the limit keeps its keys but makes no more until under it', async () => {
    const s = await salon();
    await makeKeys(s, 10);
    // Eleven and twelve keys, as a business that had them before the limit.
    const sql = testSql(api.app);
    const [template] = await sql.query<{ member_id: string }[]>('SELECT member_id FROM api_keys WHERE business_id = $1 LIMIT 1', [s.id]);
    for (const n of [1, 2]) {
      await sql.query(
        `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, api_version)
         VALUES (gen_random_uuid(), $1, $2, $3, 'rk_live_Over', $4, '{services.read}', '1.4.0')`,
        [s.id, template.member_id, `Over ${n}`, `over-${s.id}-${n}`],
      );
    }
    expect(await activeKeys(s.slug)).toHaveLength(12);
    const refused = await adminCreate(s);
    expect({ code: refused.code, error: refused.error.code }).toEqual({ code: 1, error: 'KEY_LIMIT' });
    expect(refused.error.detail).toContain('has 12 active live keys');
    expect(await activeKeys(s.slug)).toHaveLength(12);
  });

  it('the console refuses the eleventh on the page, naming the limit', async () => {
    const s = await salon();
    await makeKeys(s, 10, true);
    const console = await ConsoleClient.signIn(api.app, s.slug, s.owner);
    const page = `/console/b/${s.slug}/keys`;
    expect((await console.get(page)).text).toContain('A business holds at most 10 active keys per mode (live, test)');

    const refused = await console.post(page, page, { name: 'Eleventh', scopes: 'services.read', mode: 'test', apiVersion: '1.4.0' });
    expect({ status: refused.status, location: refused.location }).toEqual({ status: 303, location: `${page}#create-key` });
    expect(refused.text).toContain(
      'has 10 active test keys; a business holds at most 10 per mode (live, test). Revoke one to make another.',
    );
    expect(refused.text).not.toMatch(/rk_test_[A-Za-z0-9]{38}/);
    expect((await activeKeys(s.slug)).filter((key) => key.mode === 'test')).toHaveLength(10);

    // A live key is still made: the other mode has room.
    const live = await console.post(page, page, { name: 'Live', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' });
    expect(live.status).toBe(303);
    expect(live.text).toMatch(/rk_live_[A-Za-z0-9]{38}/);
  });
});

describe('the console makes at most 20 keys per business an hour', () => {
  it('refuses the 21st within the hour on the page, though the business has room for it; the admin command line is not limited', async () => {
    const s = await salon();
    const console = await ConsoleClient.signIn(api.app, s.slug, s.owner);
    const page = `/console/b/${s.slug}/keys`;
    for (const mode of ['live', 'test']) {
      for (let i = 0; i < 10; i += 1) {
        const made = await console.post(page, page, { name: `${mode} ${i}`, scopes: 'services.read', mode, apiVersion: '1.4.0' });
        expect({ mode, i, status: made.status, key: /rk_(live|test)_/.test(made.text) }).toEqual({ mode, i, status: 303, key: true });
      }
    }
    // Room for a live key again: only the hourly limit can refuse the next one.
    const [live] = (await activeKeys(s.slug)).filter((key) => key.mode === 'live');
    await keys().revoke(s.slug, { id: live.id });

    const refused = await console.post(page, page, { name: 'Twenty-first', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' });
    expect(refused.status).toBe(303);
    expect(refused.text).toContain('The console makes at most 20 keys per business an hour, and has made 20 in the last hour.');
    expect(refused.text).not.toMatch(/rk_live_[A-Za-z0-9]{38}/);
    expect(await activeKeys(s.slug)).toHaveLength(19);

    // An operator's key is not the console's: it is made, and counted in the mode's ten.
    expect((await adminCreate(s)).code).toBe(0);
    expect(await activeKeys(s.slug)).toHaveLength(20);

    // An hour later (the console's keys moved back in time), the console makes keys again.
    await testSql(api.app).query(
      `UPDATE api_keys SET created_at = created_at - interval '61 minutes'
        WHERE origin = 'console' AND business_id IN (SELECT id FROM businesses WHERE id = $1 OR live_business_id = $1)`,
      [s.id],
    );
    const [another] = (await activeKeys(s.slug)).filter((key) => key.mode === 'live');
    await keys().revoke(s.slug, { id: another.id });
    const later = await console.post(page, page, { name: 'Later', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' });
    expect(later.status).toBe(303);
    expect(later.text).toMatch(/rk_live_[A-Za-z0-9]{38}/);
  });
});

describe('a FREE business has no sandbox', () => {
  const sandboxRows = async (id: string) =>
    (await testSql(api.app).query<{ id: string }[]>('SELECT id FROM businesses WHERE live_business_id = $1', [id])).length;
  const NO_SANDBOX = 'The FREE plan has no integrations, so no test mode: creating or resetting the sandbox needs the SOLO or TEAM plan.';

  it('`admin sandbox create`, `sandbox reset` and `key create --test` refuse it with PLAN_INTEGRATIONS; a sandbox made before stays', async () => {
    const free = await seed({ plan: 'FREE', keys: [] });
    for (const argv of [
      ['sandbox', 'create', '--business', free.slug],
      ['key', 'create', '--business', free.slug, '--member', free.ownerEmail!, '--name', 'T', '--scopes', 'services.read', '--test'],
    ]) {
      const refused = await runAdminCommand(argv, config);
      expect({ argv, code: refused.code, error: refused.error }).toEqual({
        argv,
        code: 1,
        error: { code: 'PLAN_INTEGRATIONS', detail: NO_SANDBOX },
      });
    }
    expect(await sandboxRows(free.id)).toBe(0);

    // Made on SOLO, then the plan moved to FREE: kept, but not reset.
    const downgraded = await seed({ plan: 'SOLO', keys: [], sandbox: true });
    expect((await runAdminCommand(['business', 'plan', '--business', downgraded.slug, '--plan', 'FREE'], config)).code).toBe(0);
    const reset = await runAdminCommand(['sandbox', 'reset', '--business', downgraded.slug], config);
    expect({ code: reset.code, error: reset.error }).toEqual({ code: 1, error: { code: 'PLAN_INTEGRATIONS', detail: NO_SANDBOX } });
    expect(await sandboxRows(downgraded.id)).toBe(1);
    // Back on a plan with integrations, it is reset again.
    expect((await runAdminCommand(['business', 'plan', '--business', downgraded.slug, '--plan', 'TEAM'], config)).code).toBe(0);
    expect((await runAdminCommand(['sandbox', 'reset', '--business', downgraded.slug], config)).code).toBe(0);
  });

  it('a fixture refuses a FREE business with a sandbox or a test key, and a business with an eleventh key of a mode, naming the entry', async () => {
    for (const entry of [
      { sandbox: true },
      { keys: [{ ref: 't', member: 'owner', name: 'T', scopes: ['services.read' as const], mode: 'test' as const }] },
    ]) {
      await expect(
        seed({ plan: 'FREE', members: [{ ref: 'owner', name: 'O', email: 'o@free.example', role: 'OWNER' }], ...entry }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: expect.stringContaining(NO_SANDBOX),
      });
    }
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      ref: `k${i}`,
      member: 'owner',
      name: `K${i}`,
      scopes: ['services.read' as const],
    }));
    await expect(
      seed({ plan: 'SOLO', members: [{ ref: 'owner', name: 'O', email: 'o@eleven.example', role: 'OWNER' }], keys: eleven }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: expect.stringContaining('keys[10] (ref "k10"): '),
    });
  });

  it('the console explains why on the Test mode page instead of offering the buttons, and refuses a form posted anyway', async () => {
    const free = await seed({ plan: 'FREE', keys: [] });
    const console = await ConsoleClient.signIn(api.app, free.slug, free.ownerEmail!);
    const page = `/console/b/${free.slug}/test-mode`;
    const shown = await console.get(page);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(NO_SANDBOX);
    expect(shown.text).not.toContain('Create the sandbox');

    const created = await console.post(page, `${page}/create`, {});
    expect({ status: created.status, location: created.location }).toEqual({ status: 303, location: page });
    expect(created.text).toContain(NO_SANDBOX);
    expect(await sandboxRows(free.id)).toBe(0);

    // A key form posted anyway is refused on the keys page, which says why (the form is not offered).
    const keysPage = `/console/b/${free.slug}/keys`;
    const key = await console.post(keysPage, keysPage, { name: 'Forged', scopes: 'services.read', mode: 'live', apiVersion: '1.4.0' });
    expect({ status: key.status, location: key.location }).toEqual({ status: 303, location: `${keysPage}#create-key` });
    expect(key.text).toContain('The plan has no integrations.');
    expect(key.text).not.toMatch(/rk_live_[A-Za-z0-9]{38}/);
    expect(await activeKeys(free.slug)).toHaveLength(0);

    // Its sandbox made on SOLO is listed, with no reset button, and a reset posted anyway is refused.
    const downgraded = await seed({ plan: 'SOLO', keys: [], sandbox: true });
    expect((await runAdminCommand(['business', 'plan', '--business', downgraded.slug, '--plan', 'FREE'], config)).code).toBe(0);
    const owner = await ConsoleClient.signIn(api.app, downgraded.slug, downgraded.ownerEmail!);
    const itsPage = `/console/b/${downgraded.slug}/test-mode`;
    const listed = await owner.get(itsPage);
    expect(listed.text).toContain(`${downgraded.slug}.test`);
    expect(listed.text).toContain(NO_SANDBOX);
    expect(listed.text).not.toContain('Reset the sandbox');
    const reset = await owner.post(itsPage, `${itsPage}/reset`, {});
    expect({ status: reset.status, location: reset.location }).toEqual({ status: 303, location: itsPage });
    expect(reset.text).toContain(NO_SANDBOX);

    // A plan with integrations gets the buttons, and they work.
    const solo = await seed({ plan: 'SOLO', keys: [] });
    const soloOwner = await ConsoleClient.signIn(api.app, solo.slug, solo.ownerEmail!);
    const soloPage = `/console/b/${solo.slug}/test-mode`;
    expect((await soloOwner.get(soloPage)).text).toContain('Create the sandbox');
    expect((await soloOwner.post(soloPage, `${soloPage}/create`, {})).status).toBe(303);
    expect(await sandboxRows(solo.id)).toBe(1);
  });
});
