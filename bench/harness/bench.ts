import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Catalogue } from '../data/catalogue.js';
import { APP_CORE, BENCH_SECRETS, REDIS_URL, REPO_ROOT, RUN_NAME, type BenchOptions } from '../settings.js';
import type { Figure } from './figures.js';
import { nodeFlagsOf } from './node-flags.js';
import { freePort, PinnedProcess } from './pinned-process.js';
import { summarizeAllocations, summarizeProfile, type AllocationSummary, type ProfileSummary } from './profile.js';

export const API_SCRIPT = 'dist/apps/api/src/main.js';
export const WORKER_SCRIPT = 'dist/apps/worker/src/main.js';

const PACKAGE_JSON = readFileSync(join(REPO_ROOT, 'package.json'), 'utf8');
export const API_NODE_FLAGS = nodeFlagsOf(PACKAGE_JSON, 'start:api', API_SCRIPT);
export const WORKER_NODE_FLAGS = nodeFlagsOf(PACKAGE_JSON, 'start:worker', WORKER_SCRIPT);
/** Raw profiles and other large artefacts: git-ignored. */
export const ARTEFACTS = join(REPO_ROOT, 'bench', 'results', 'tmp');

/** A server the bench drives: its pinned process and where it listens. */
export interface Service {
  process: PinnedProcess;
  baseUrl: string;
}

/** One arm of a scenario: run it for some seconds (a warm-up, or a measured round), get a sample. */
export interface Arm<T> {
  name: string;
  run(seconds: number, warmUp?: boolean): Promise<T>;
  /** One line for the progress log. */
  describe(sample: T): string;
}

export interface ProfileReport {
  /** What was profiled: the process and the load. */
  of: string;
  /** SQL statements the process sent per request (or per delivery) under the measured load. */
  statementsPerRequest: number;
  /**
   * CPU time the process used meanwhile (/proc). The profiler samples wall time, so when this is
   * below summary.busyMs the difference is time the process waited for its core, which
   * PostgreSQL and Redis share: it shows up as the self time of the system call that woke them.
   */
  cpuMs: number;
  summary: ProfileSummary;
  file: string;
  /** What the process allocated meanwhile, from the sampling heap profile beside the CPU profile. */
  allocation?: AllocationSummary;
}

export interface ScenarioReport {
  id: string;
  title: string;
  /** How it was measured, in a sentence or two. */
  method: string;
  figures: Figure[];
  /** Per-round raw samples of every arm. */
  rounds: Record<string, unknown[]>;
  /** Settings particular to the scenario (environment of the processes, rates). */
  settings?: Record<string, unknown>;
  checks?: Record<string, unknown>;
  profile?: ProfileReport;
}

/** Profiled process: started with --cpu-prof and the preload, told over IPC when the measured load starts and when to exit. */
export interface Profiled {
  dir: string;
  notesFile: string;
}

/** Everything a scenario needs: options, data, and how to start the measured processes. */
export class Bench {
  private profiles = 0;

  constructor(
    readonly options: BenchOptions,
    readonly runUrl: string,
    readonly catalogue: Catalogue,
    readonly log: (line: string) => void,
  ) {}

  /** The environment of the API and the worker: production, logs off, bench database and secrets. */
  appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      DATABASE_URL: this.runUrl,
      REDIS_URL,
      ...BENCH_SECRETS,
      QUEUE_PREFIX: RUN_NAME,
      METRICS_PORT: '0',
      MAIL_DIR: join(tmpdir(), 'scheduling-bench-mail'),
      // Production without an https address: the API starts only without the console (docs/design-record.md#d29).
      CONSOLE: 'off',
      ...extra,
    };
  }

  /** The settings of appEnv without the secrets, for the results. */
  publicSettings(extra: Record<string, string> = {}): Record<string, string | undefined> {
    const { NODE_ENV, LOG_LEVEL, QUEUE_PREFIX } = this.appEnv(extra);
    return { NODE_ENV, LOG_LEVEL, QUEUE_PREFIX, AUTH_CACHE_TTL_MS: '500 (default)', ...extra };
  }

  /**
   * The API as `npm run start:api` runs it (its node flags read from that script); `nodeFlags`
   * replace them for another setting measured beside it, `env` adds to or replaces appEnv's.
   */
  async startApi(
    name: string,
    profiled?: Profiled,
    nodeFlags: string[] = API_NODE_FLAGS,
    env: Record<string, string> = {},
  ): Promise<Service> {
    const port = await freePort();
    const api = await PinnedProcess.start({
      name,
      core: APP_CORE,
      nodeArgs: [...profileArgs(profiled), ...this.stallTraceArgs(), ...nodeFlags, API_SCRIPT],
      env: { ...this.appEnv({ ...env, PORT: String(port) }), ...profileNotesEnv(profiled), ...this.stallTraceEnv(name) },
      readyUrl: `http://127.0.0.1:${port}/health/live`,
      ipc: profiled !== undefined,
    });
    return { process: api, baseUrl: `http://127.0.0.1:${port}` };
  }

  async startWorker(env: Record<string, string>, profiled?: Profiled): Promise<PinnedProcess> {
    return PinnedProcess.start({
      name: 'worker',
      core: APP_CORE,
      nodeArgs: [...profileArgs(profiled), ...this.stallTraceArgs(), ...WORKER_NODE_FLAGS, WORKER_SCRIPT],
      env: { ...this.appEnv(env), ...profileNotesEnv(profiled), ...this.stallTraceEnv('worker') },
      ipc: profiled !== undefined,
    });
  }

  private stallTraceArgs(): string[] {
    return this.options.traceStalls ? ['--import', './dist/bench/harness/stall-trace-preload.js'] : [];
  }

  /** Where a traced process writes its stalls: one file per process name, under bench/results/tmp/stalls. */
  private stallTraceEnv(name: string): Record<string, string> {
    if (!this.options.traceStalls) return {};
    const dir = join(ARTEFACTS, 'stalls');
    mkdirSync(dir, { recursive: true });
    return { BENCH_STALL_TRACE: join(dir, `${RUN_NAME}-${name.replace(/[^a-z0-9]+/gi, '-')}.log`) };
  }

  /** A baseline server from dist/bench/servers, ready when `readyPath` answers. */
  async startServer(name: string, script: string, readyPath: string, env: Record<string, string> = {}): Promise<Service> {
    const port = await freePort();
    const server = await PinnedProcess.start({
      name,
      core: APP_CORE,
      nodeArgs: [`dist/bench/servers/${script}`],
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), ...env },
      readyUrl: `http://127.0.0.1:${port}${readyPath}`,
    });
    return { process: server, baseUrl: `http://127.0.0.1:${port}` };
  }

  /**
   * Runs the arms side by side: a warm-up of each, then `rounds` rounds in which every arm runs
   * once, the order reversed every other round so that a drift of the machine weighs on all
   * arms alike. Returns each arm's samples, round by round.
   */
  async interleave<T>(scenario: string, arms: Arm<T>[]): Promise<Record<string, T[]>> {
    for (const arm of arms) await arm.run(this.options.warmupSeconds, true);
    const samples: Record<string, T[]> = Object.fromEntries(arms.map((arm) => [arm.name, []]));
    for (let round = 1; round <= this.options.rounds; round++) {
      const order = round % 2 === 1 ? arms : [...arms].reverse();
      for (const arm of order) {
        const sample = await arm.run(this.options.armSeconds);
        samples[arm.name].push(sample);
        this.log(`  ${scenario} round ${round} ${arm.name}: ${arm.describe(sample)}`);
      }
    }
    return samples;
  }

  /** Whether to profile a scenario: when it missed a target, or always with --profile-all. */
  wantsProfile(report: ScenarioReport): boolean {
    const { profile } = this.options;
    return profile === 'all' || (profile === 'missed' && report.figures.some((f) => f.met === false));
  }

  /** A fresh place for one profiled process's profile and notes. */
  newProfile(label: string): Profiled {
    const dir = join(ARTEFACTS, 'profiles', `${label}-${++this.profiles}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return { dir, notesFile: join(dir, 'notes.json') };
  }

  /**
   * Stops a profiled process cleanly and reads what it recorded since it was marked (the start
   * of the measured load, after warm-up): start-up and warm-up are left out of the figures.
   */
  async finishProfile(target: PinnedProcess, profiled: Profiled, of: string, requests: number, cpuMs: number): Promise<ProfileReport> {
    target.send('exit');
    await target.exited;
    const file = readdirSync(profiled.dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`No CPU profile was written in ${profiled.dir}:\n${target.tail()}`);
    const { statements, markMicros } = JSON.parse(readFileSync(profiled.notesFile, 'utf8')) as { statements: number; markMicros: number };
    const path = join(profiled.dir, file);
    const allocations = join(profiled.dir, 'alloc.heapprofile');
    return {
      of,
      statementsPerRequest: Math.round((statements / requests) * 10) / 10,
      cpuMs: Math.round(cpuMs),
      summary: summarizeProfile(path, markMicros),
      file: path.replace(`${REPO_ROOT}/`, ''),
      allocation: existsSync(allocations) ? summarizeAllocations(allocations, requests) : undefined,
    };
  }
}

function profileArgs(profiled: Profiled | undefined): string[] {
  return profiled ? ['--cpu-prof', `--cpu-prof-dir=${profiled.dir}`, '--import', './dist/bench/harness/profiling-preload.js'] : [];
}

function profileNotesEnv(profiled: Profiled | undefined): Record<string, string> {
  return profiled ? { BENCH_PROFILE_NOTES: profiled.notesFile } : {};
}
