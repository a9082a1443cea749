import { readdir } from 'node:fs/promises';
import { jest } from '@jest/globals';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { CompiledApi } from '../../utils/compiled-api.js';
import { seed } from '../../utils/seed.js';

/**
 * docs/design-record.md#d29, as a deployment meets it: the compiled API with NODE_ENV=production
 * and the console on does not start without an https PUBLIC_BASE_URL, and says which setting to
 * give (or CONSOLE=off); with CONSOLE=off it serves the API and no console at all.
 */
jest.setTimeout(180_000);

beforeAll(() => buildApps());

async function refusedStart(extra: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const env = childEnv('console-setting', {
    NODE_ENV: 'production',
    WEBHOOKS_ALLOW_PRIVATE: undefined,
    PORT: String(await freePort()),
    ...extra,
  });
  const api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], env);
  const code = await api.exited;
  return { code, output: api.output };
}

describe('the API in production with the console on', () => {
  it.each([
    ['no PUBLIC_BASE_URL', undefined, 'it is not set'],
    ['an http PUBLIC_BASE_URL', 'http://api.salon.example', 'it is http://api.salon.example'],
  ])('refuses to start with %s, naming PUBLIC_BASE_URL and CONSOLE=off', async (_case, address, found) => {
    const { code, output } = await refusedStart({ PUBLIC_BASE_URL: address });
    expect(code).toBe(1);
    expect(output).toContain('PUBLIC_BASE_URL:');
    expect(output).toContain(found);
    expect(output).toContain('set CONSOLE=off to run without the console');
    expect(output).not.toContain('Listening on');
  });
});

describe('CONSOLE=off', () => {
  let api: CompiledApi;
  let mailDir: string;
  beforeAll(async () => {
    mailDir = childEnv('console-off').MAIL_DIR!;
    // Production, without any PUBLIC_BASE_URL: what CONSOLE=off is for.
    api = await CompiledApi.start('console-off', { env: { CONSOLE: 'off', NODE_ENV: 'production', WEBHOOKS_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(() => api?.stop());

  it("answers every /console path with the API's ordinary 404, sends no sign-in mail, and serves the API", async () => {
    const business = await seed({ plan: 'SOLO' });
    // Outside /v1/api a path the API does not serve is Express's plain 404: so is every console path.
    const unknown = await fetch(`${api.origin}/no-such-page`);
    const ordinary = { status: unknown.status, type: unknown.headers.get('content-type') };
    expect(ordinary.status).toBe(404);
    expect(await unknown.text()).toContain('Cannot GET /no-such-page');
    for (const path of ['/console', '/console/sign-in', '/console/assets/console.css', `/console/b/${business.slug}/keys`]) {
      const answer = await fetch(`${api.origin}${path}`);
      expect({ path, status: answer.status, type: answer.headers.get('content-type') }).toEqual({ path, ...ordinary });
      expect(await answer.text()).toContain(`Cannot GET ${path}`);
    }
    const asked = await fetch(`${api.origin}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: business.ownerEmail! }),
    });
    expect(asked.status).toBe(404);
    expect(await asked.text()).toContain('Cannot POST /console/sign-in');
    await expect(readdir(mailDir)).rejects.toMatchObject({ code: 'ENOENT' });

    const me = await fetch(`${api.origin}/v1/api/me`, { headers: { Authorization: `Bearer ${business.keys.owner.key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { business: { slug: string } }).business.slug).toBe(business.slug);
  });
});
