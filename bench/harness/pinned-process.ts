import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { REPO_ROOT } from '../settings.js';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ); 100 on every Linux the bench targets. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Pins this process, with every thread it has or will start, to one core. */
export function pinSelf(core: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

export interface StartOptions {
  name: string;
  core: number;
  /** Arguments of node: flags, then the script (relative to the repository root). */
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
  /** Answers (any status) once the process is ready. */
  readyUrl?: string;
  /** An IPC channel to the process (the profiling preload listens on it). */
  ipc?: boolean;
}

/**
 * A node process pinned to one core with `taskset`, whose CPU time and peak memory are read from
 * /proc: taskset execs node, so the child's pid is node's.
 */
export class PinnedProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.keep(chunk));
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
  }

  static async start(options: StartOptions): Promise<PinnedProcess> {
    const child = spawn('taskset', ['-c', String(options.core), process.execPath, ...options.nodeArgs], {
      cwd: REPO_ROOT,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
    });
    const started = new PinnedProcess(options.name, child);
    if (options.readyUrl) await started.waitReady(options.readyUrl);
    return started;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** CPU time (user + system, all threads) used so far, in milliseconds. */
  cpuMs(): number {
    // The command name in parentheses may contain spaces: count fields after its closing one.
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 (utime) and 15 (stime) of proc(5); the slice starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }

  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
    return Math.round(kb / 102.4) / 10;
  }

  send(message: string): void {
    this.child.send(message);
  }

  /** Resolves with the first message the process sends over IPC (started with `ipc`) that starts with `prefix`. */
  receive(prefix: string, timeoutMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.off('message', listener);
        reject(new Error(`${this.name} did not send "${prefix}…" within ${timeoutMs} ms:\n${this.tail()}`));
      }, timeoutMs);
      const listener = (received: unknown) => {
        if (typeof received !== 'string' || !received.startsWith(prefix)) return;
        clearTimeout(timer);
        this.child.off('message', listener);
        resolve(received);
      };
      this.child.on('message', listener);
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** The last lines the process wrote, for an error report. */
  tail(): string {
    return this.output.split('\n').slice(-30).join('\n');
  }

  private keep(chunk: Buffer): void {
    // Logs are off in the bench processes; what does come (errors) is kept, bounded.
    this.output = (this.output + chunk.toString()).slice(-20_000);
  }

  private async waitReady(url: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited (${this.child.exitCode}):\n${this.tail()}`);
      try {
        await fetch(url, { signal: AbortSignal.timeout(1000) });
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`${this.name} did not answer ${url} within 60 s:\n${this.tail()}`);
        await new Promise((done) => setTimeout(done, 100));
      }
    }
  }
}
