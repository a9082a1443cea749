import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { testConfig } from './test-config.js';
import { TEST_DATABASE_NAME, testDatabaseUrl } from './test-database.js';

/** The repository root (this file is test/utils/child-process.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Compiles the apps into dist/ the way `npm run build` does (tsc -b, incremental: seconds when
 * little changed), so tests can run the real processes from a clean clone with plain `npm test`.
 */
export async function buildApps(): Promise<void> {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -b tsconfig.build.json failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** A child process with its output kept, for waiting on a line and for reports when a test fails. */
export class Child {
  output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly process: ChildProcess) {
    process.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    process.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((done) => process.once('exit', (code) => done(code)));
  }

  static spawn(command: string, args: string[], env: NodeJS.ProcessEnv): Child {
    return new Child(spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  async waitForOutput(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (this.process.exitCode !== null) throw new Error(`The process exited (${this.process.exitCode}):\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`No ${pattern} within ${timeoutMs} ms:\n${this.output}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  /** SIGKILL: no shutdown hook runs, as when the machine or the OOM killer stops it. */
  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * The environment of a compiled process (API, worker, admin) started by a test: the test database,
 * local Redis, this run's queue prefix and secrets (those of testConfig, so keys made in the test
 * process are valid in the child), and a scratch mail folder named after `name`. Logs stay at the
 * default level, so tests can wait for lines such as "Listening on".
 * `extra` overrides any of it; an undefined value removes the variable (e.g. REDIS_URL for a process
 * run with IN_PROCESS_JOBS).
 */
export function childEnv(name: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const config = testConfig();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: config.REDIS_URL,
    QUEUE_PREFIX: `${name}-${TEST_DATABASE_NAME}`,
    API_KEY_PEPPER: config.API_KEY_PEPPER,
    CURSOR_SECRET: config.CURSOR_SECRET,
    SECRETS_KEY: config.SECRETS_KEY,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    AUTH_FAILURE_LIMIT: config.AUTH_FAILURE_LIMIT.toString(),
    // Several API processes run at once in some tests.
    METRICS_PORT: '0',
    MAIL_DIR: join(tmpdir(), `${name}-mail-${process.pid}`),
  };
  for (const [variable, value] of Object.entries(extra)) {
    if (value === undefined) delete env[variable];
    else env[variable] = value;
  }
  return env;
}
