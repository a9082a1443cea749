import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Child } from '../../utils/child-process.js';

/**
 * docs/design-record.md#d25: `npm run start:api` and `npm run start:worker` run their process
 * with NODE_ENV=production unless NODE_ENV says otherwise, so the settings refused in production
 * are refused there. Each script runs as operators run it (npm, its shell); a module preloaded
 * through NODE_OPTIONS reports the environment the app process was given and stops it before it
 * starts (npm itself, also a node process, is let through).
 */
let folder: string;
let probe: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'production-scripts-'));
  probe = join(folder, 'report-node-env.mjs');
  await writeFile(
    probe,
    `if (process.argv[1]?.includes('/dist/apps/')) {
  console.log('APP_ENV ' + JSON.stringify({ script: process.argv[1].replace(/^.*\\/dist\\//, 'dist/'), NODE_ENV: process.env.NODE_ENV ?? null }));
  process.exit(0);
}
`,
  );
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** The environment `npm run <script>` gives the app process, with `env` added to npm's. */
async function appEnvOf(script: string, env: Record<string, string> = {}): Promise<{ script: string; NODE_ENV: string | null }> {
  const child = Child.spawn('npm', ['run', '--silent', script], {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_OPTIONS: `--import=${probe}`,
    ...env,
  });
  const code = await child.exited;
  const line = /^APP_ENV (.+)$/m.exec(child.output)?.[1];
  if (code !== 0 || line === undefined) throw new Error(`npm run ${script} (exit ${code}):\n${child.output}`);
  return JSON.parse(line) as { script: string; NODE_ENV: string | null };
}

describe('the production npm scripts', () => {
  it('run the API and the worker with NODE_ENV=production when NODE_ENV is not set', async () => {
    expect(await appEnvOf('start:api')).toEqual({ script: 'dist/apps/api/src/main.js', NODE_ENV: 'production' });
    expect(await appEnvOf('start:worker')).toEqual({ script: 'dist/apps/worker/src/main.js', NODE_ENV: 'production' });
  });

  it('keep the NODE_ENV they are told', async () => {
    expect(await appEnvOf('start:api', { NODE_ENV: 'development' })).toMatchObject({ NODE_ENV: 'development' });
    expect(await appEnvOf('start:worker', { NODE_ENV: 'test' })).toMatchObject({ NODE_ENV: 'test' });
  });
});
