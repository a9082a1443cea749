import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file compiles to dist/bench/settings.js). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The core the measured processes (API, worker, baselines) run on; the load generator takes the other. */
export const APP_CORE = 1;
export const LOAD_CORE = 0;

/**
 * BENCH_RUN_NAME (default `bench`) names what one run owns: its template (`<name>_template`),
 * database (`<name>_run`) and BullMQ prefix (`<name>`), so that two checkouts, even with different
 * migrations, can profile side by side without clobbering each other (their figures are then
 * noisy: they share the cores).
 */
export const RUN_NAME = /^[a-z][a-z0-9_]{0,30}$/.test(process.env.BENCH_RUN_NAME ?? '') ? process.env.BENCH_RUN_NAME! : 'bench';
export const TEMPLATE_DATABASE = `${RUN_NAME}_template`;
export const RUN_DATABASE = `${RUN_NAME}_run`;

/**
 * Fixed secrets of the bench processes only. The keys are hashed with the same pepper the bench
 * API uses, and the deep cursor of S3 is made with the same cursor secret.
 */
export const BENCH_SECRETS = {
  API_KEY_PEPPER: 'bench-pepper-bench-pepper-bench-pepper-0001',
  CURSOR_SECRET: 'bench-cursor-secret-bench-cursor-secret-01',
  SECRETS_KEY: 'bench1:YmVuY2gtc2VjcmV0cy1rZXktYmVuY2gtc2VjcmV0cy0=',
} as const;

/** Redis key prefix of the raw baseline's rate limit: its counts never mix with the API's (`rl:key:`). */
export const BASELINE_RATE_LIMIT_PREFIX = 'bench-rl:key:';

export interface BenchOptions {
  /** Rounds of interleaved arms per scenario; each figure is the median of the per-round values. */
  rounds: number;
  /** Seconds of load per arm and round. */
  armSeconds: number;
  /** Seconds of unmeasured load per process before its first round (JIT, pools, caches). */
  warmupSeconds: number;
  /** Concurrent connections of the load generator (no pipelining). */
  connections: number;
  /** Notices per round of the notices scenario. */
  noticesPerRound: number;
  /** Seconds of the notice latency run. */
  latencySeconds: number;
  /** CPU profiles of the API (or worker): where a target is missed, of every scenario, or none. */
  profile: 'missed' | 'all' | 'none';
  /** Only these scenarios (S1…S9); all when empty. */
  only: string[];
  quick: boolean;
  /** --trace-stalls: the API and the worker write their event-loop stalls, GC pauses and slow statements (stall-trace-preload.ts). */
  traceStalls: boolean;
}

const FULL: BenchOptions = {
  rounds: 5,
  armSeconds: 10,
  warmupSeconds: 3,
  connections: 50,
  noticesPerRound: 3000,
  latencySeconds: 15,
  profile: 'missed',
  only: [],
  quick: false,
  traceStalls: false,
};

/** `--quick`: a smoke run of the whole harness in about two minutes; its figures are rough. */
const QUICK: BenchOptions = {
  ...FULL,
  rounds: 2,
  armSeconds: 3,
  warmupSeconds: 1,
  noticesPerRound: 500,
  latencySeconds: 4,
  profile: 'none',
  quick: true,
};

const USAGE = `npm run bench [-- options]
  --quick            2 rounds of 3 s arms, no profiles: checks the harness, rough figures
  --rounds N         rounds of interleaved arms (default 5)
  --seconds N        seconds per arm and round (default 10)
  --only S2,S4       run only these scenarios
  --no-profile       skip the CPU profiles of missed targets
  --profile-all      profile every scenario, targets met or not
  --trace-stalls     the API and the worker write their event-loop stalls, GC pauses and slow
                     statements, with the time of each, to bench/results/tmp/stalls/
  --rebuild-data     build bench_template again even when it is up to date`;

export interface ParsedArgs {
  options: BenchOptions;
  rebuildData: boolean;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const args = [...argv];
  let options = args.includes('--quick') ? { ...QUICK } : { ...FULL };
  let rebuildData = false;
  const number = (flag: string, value: string | undefined): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${flag} needs a positive integer\n${USAGE}`);
    return parsed;
  };
  while (args.length > 0) {
    const arg = args.shift()!;
    switch (arg) {
      case '--quick':
        break;
      case '--rounds':
        options = { ...options, rounds: number(arg, args.shift()) };
        break;
      case '--seconds':
        options = { ...options, armSeconds: number(arg, args.shift()) };
        break;
      case '--only':
        options = { ...options, only: (args.shift() ?? '').toUpperCase().split(',').filter(Boolean) };
        break;
      case '--no-profile':
        options = { ...options, profile: 'none' };
        break;
      case '--profile-all':
        options = { ...options, profile: 'all' };
        break;
      case '--trace-stalls':
        options = { ...options, traceStalls: true };
        break;
      case '--rebuild-data':
        rebuildData = true;
        break;
      default:
        throw new Error(`Unknown option ${arg}\n${USAGE}`);
    }
  }
  return { options, rebuildData };
}

/** The PostgreSQL server (from DATABASE_URL, as the tests use it) with another database name. */
export function databaseUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}`;
  return url.toString();
}

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
