import { jest } from '@jest/globals';
import { SecretsModule } from '#core/secrets/secrets.module.js';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * A refused SECRETS_KEY (docs/design-record.md#d25) as an operator sees it: the compiled API, worker
 * and admin command line, started as a deployment starts them, print one paragraph naming the key
 * id and exit 1, instead of serving with a key that cannot open what is stored.
 */
jest.setTimeout(120_000);

const KEY_A = Buffer.alloc(32, 0xa1).toString('base64');
const KEY_B = Buffer.alloc(32, 0xb2).toString('base64');
let context: TestContext;
const children: Child[] = [];

/** The exit code, or null if the process is still running after `withinMs` (it started instead of refusing). */
async function exitCode(child: Child, withinMs = 60_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const stillRunning = new Promise<null>((done) => (timer = setTimeout(() => done(null), withinMs)));
  try {
    return await Promise.race([child.exited, stillRunning]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(script: 'api' | 'worker' | 'admin', secretsKey: string, args: string[] = []): Promise<Child> {
  const env = childEnv('secrets-key', { SECRETS_KEY: secretsKey, PORT: String(await freePort()), REDIS_URL: process.env.REDIS_URL });
  const child = Child.spawn(process.execPath, [`dist/apps/${script}/src/main.js`, ...args], env);
  children.push(child);
  return child;
}

beforeAll(async () => {
  await buildApps();
  // A process with the run's key: test1's check value is recorded (if no earlier suite did).
  context = await startTestContext({ imports: [SecretsModule] });
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await context.close();
});

describe('a refused SECRETS_KEY stops the process with one paragraph', () => {
  it('the API, given another key under the id "test1" than the one that sealed under it', async () => {
    const api = await run('api', `test1:${KEY_A}`);
    expect(await exitCode(api)).toBe(1);
    // Its own line among the start's log lines (on stderr), and no stack trace.
    expect(api.output.split('\n')).toContainEqual(
      expect.stringMatching(
        /^SECRETS_KEY gives the key id "test1" a key that is not the one that sealed under that id.*`admin secrets re-encrypt`\.$/,
      ),
    );
    expect(api.output).not.toMatch(/^\s+at /m);
  });

  it('the worker, given the key id "k1" twice', async () => {
    const worker = await run('worker', `k1:${KEY_A},k1:${KEY_B}`);
    expect(await exitCode(worker)).toBe(1);
    expect(worker.output).toMatch(/^Invalid configuration:\n {2}SECRETS_KEY: the key id "k1" is given more than once; [^\n]*\n$/);
  });

  it('an admin command, given another key under the id "test1"', async () => {
    const admin = await run('admin', `test1:${KEY_A}`, ['webhook', 'list', '--business', 'any-business']);
    expect(await exitCode(admin)).toBe(1);
    expect(JSON.parse(admin.output)).toEqual({
      error: { code: 'CONFIG_INVALID', detail: expect.stringMatching(/^SECRETS_KEY gives the key id "test1" a key that is not the one/) },
    });
  });
});
