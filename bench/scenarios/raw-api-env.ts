import type { Bench } from '../harness/bench.js';
import { BASELINE_RATE_LIMIT_PREFIX, BENCH_SECRETS, REDIS_URL } from '../settings.js';

/** The environment of the raw node:http + pg baseline (bench/servers/raw-api.ts). */
export function rawApiEnv(bench: Bench): Record<string, string> {
  return {
    DATABASE_URL: bench.runUrl,
    REDIS_URL,
    API_KEY_PEPPER: BENCH_SECRETS.API_KEY_PEPPER,
    RATE_LIMIT_PREFIX: BASELINE_RATE_LIMIT_PREFIX,
  };
}
