import { readdirSync, readFileSync } from 'node:fs';

/** CPU time, in ms or µs per unit of work, of the machine's PostgreSQL and of its Redis. */
export interface ServiceCpu {
  postgres: number;
  redis: number;
}

/** The engines' processes at one moment: pid → which engine, and its CPU time so far in ms. */
export type EngineProcesses = Map<string, { engine: keyof ServiceCpu; ms: number }>;

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/**
 * Every process named postgres (the server and its backends) or redis-server, with its utime +
 * stime from /proc: what a round costs the engines beside the measured process, which shares
 * the machine's two cores with them.
 */
export function serviceCpu(): EngineProcesses {
  const processes: EngineProcesses = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const engine = name === 'postgres' ? 'postgres' : name.startsWith('redis-server') ? 'redis' : null;
    if (!engine) continue;
    // Fields after the name: state is the first, utime the 12th and stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    processes.set(pid, { engine, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
  }
  return processes;
}

/**
 * What the engines used since `before`, per unit of work (a request, a delivery), in µs: each
 * process's own difference, so a backend that ended meanwhile (a pool letting an idle connection
 * go) takes only its time during the round with it, not its whole life's.
 */
export function serviceCpuPer(before: EngineProcesses, units: number): ServiceCpu {
  const used: ServiceCpu = { postgres: 0, redis: 0 };
  for (const [pid, { engine, ms }] of serviceCpu()) used[engine] += ms - (before.get(pid)?.ms ?? 0);
  const per = (ms: number) => (units === 0 ? 0 : (ms * 1000) / units);
  return { postgres: per(used.postgres), redis: per(used.redis) };
}
