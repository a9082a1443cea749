import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import pg from 'pg';
import { Child, REPO_ROOT, buildApps, freePort } from '../../utils/child-process.js';
import { TEST_DATABASE_NAME, serverUrl } from '../../utils/test-database.js';
import { connectsTo } from '../../utils/connects-to.js';

/**
 * `npm start` (scripts/start.mjs after the build) as a new user runs it, on a database of its own
 * and a data folder of its own: it prints the demo business's live key and a test key on its
 * sandbox (docs/design-record.md#d19), and both answer GET /me as the same business. At the
 * default log level the start ends with that banner, saying where the keys are kept, below the
 * API's own start lines and without Nest's list of mapped routes. The API listens on loopback only.
 */
jest.setTimeout(240_000);

const database = `${TEST_DATABASE_NAME}_npm_start`;
let folder: string;
let start: Child | undefined;

function databaseUrl(name: string): string {
  const url = serverUrl();
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  await buildApps();
  await dropDatabase();
  folder = await mkdtemp(join(tmpdir(), 'npm-start-'));
});

afterAll(async () => {
  if (start && start.process.exitCode === null) {
    // SIGTERM: start.mjs stops the API it started before it exits.
    start.process.kill('SIGTERM');
    await start.exited;
  }
  await dropDatabase();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints a live key and a test key of the demo business, and both are accepted', async () => {
    const port = await freePort();
    start = Child.spawn(process.execPath, ['scripts/start.mjs'], {
      PATH: process.env.PATH,
      DEV_DATA_DIR: join(folder, 'data'),
      DATABASE_URL: databaseUrl(database),
      PORT: String(port),
      METRICS_PORT: '0',
      MAIL_DIR: join(folder, 'mail'),
    });
    await start.waitForOutput(/Ctrl-C stops[^\n]*\n/, 180_000);
    const atStart = start.output;
    expect(atStart).not.toMatch(/Mapped \{|RoutesResolver|RouterExplorer|InstanceLoader/);
    // The API's own lines come first, the banner last.
    const banner = atStart.indexOf('Development mode');
    expect(atStart.indexOf('Listening on')).toBeGreaterThanOrEqual(0);
    expect(atStart.indexOf('Listening on')).toBeLessThan(banner);
    expect(atStart.indexOf('Metrics on')).toBeLessThan(banner);
    expect(atStart.indexOf('IN_PROCESS_JOBS: no Redis')).toBeLessThan(banner);
    expect(atStart.trimEnd()).toMatch(/Ctrl-C stops[^\n]*$/);
    expect(atStart.slice(banner)).toContain(`The keys are kept in ${join(folder, 'data', 'demo-key.json')}`);
    // Loopback only (HOST unset): private webhook addresses and a demo key are for this machine.
    expect(atStart).toContain(`Listening on http://127.0.0.1:${port}/v1/api`);
    expect(atStart.slice(banner)).toContain('listening on this machine only (HOST=127.0.0.1)');
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4');
    if (outside) await expect(connectsTo(outside.address, port)).resolves.toBe(false);
    const live = /demo key:\s+(rk_live_\S+)/.exec(start.output)?.[1];
    const test = /test key[^\n]*\n(?:[^\n]*\n)*?\s+(rk_test_\S+)/.exec(start.output)?.[1];
    expect(live).toMatch(/^rk_live_[0-9A-Za-z]{38}$/);
    expect(test).toMatch(/^rk_test_[0-9A-Za-z]{38}$/);

    // One address (docs/design-record.md#d29): every address printed names the same host, the
    // API's at its running port, the console's sign-in link included.
    const printed = [...atStart.matchAll(/https?:\/\/[^\s/"]+/g)].map((match) => new URL(match[0]));
    expect(printed.length).toBeGreaterThan(8);
    expect([...new Set(printed.map((url) => url.hostname))]).toEqual(['127.0.0.1']);
    const consoleLink = /\n\s+(http\S+\/console\/sign-in\/confirm\?token=\S+)/.exec(atStart.slice(banner))?.[1];
    expect(new URL(consoleLink!).origin).toBe(`http://127.0.0.1:${port}`);
    // The admin command, with the settings .data/dev.env holds (as `set -a; . .data/dev.env` loads
    // them), prints a link to the running port, not the default one.
    const devEnv = Object.fromEntries(
      [...(await readFile(join(folder, 'data', 'dev.env'), 'utf8')).matchAll(/^([A-Z_]+)='(.*)'$/gm)].map(([, name, value]) => [
        name,
        value.replaceAll("'\\''", "'"),
      ]),
    );
    const admin = await promisify(execFile)(
      process.execPath,
      ['dist/apps/admin/src/main.js', 'member', 'sign-in-link', '--business', 'demo-salon', '--email', 'ana@demo-salon.example'],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, ...devEnv } },
    );
    const { url } = JSON.parse(admin.stdout) as { url: string };
    expect(new URL(url).origin).toBe(`http://127.0.0.1:${port}`);
    const confirm = await fetch(url);
    expect(confirm.status).toBe(200);

    for (const key of [live!, test!]) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/api/me`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { business: { slug: string }; key: { prefix: string } };
      expect(body.business.slug).toBe('demo-salon');
      expect(body.key.prefix).toBe(key.slice(0, 12));
    }
  });
});
