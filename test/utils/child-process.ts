import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';

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
