// Loaded with `node --import` into the API and the worker when the bench runs with --trace-stalls
// (issue 38: what a neighbour waits on). It writes one line per event that could hold every
// request of the process at once, with its wall-clock time, to BENCH_STALL_TRACE:
//   loop   the event loop was late by more than LOOP_MS within a window of WINDOW_MS
//   gc     a garbage-collector pause longer than GC_MS, with its kind
//   sql    a statement (or a pool checkout) that took longer than SQL_MS from the caller's side
// and, once a second, what the process spent that second, to compare the hostile's onset in S9
// with its steady state:
//   second cpu <ms> (user <ms>) threads <main ms>+<V8 helpers ms>, main waited <ms> gc <ms by kind, count>
//     promoted <MB> heap <used>/<total> MB sockets <open> timers <pending> cores <busy %>/<busy %> iowait <%>
// (threads: the CPU of the JavaScript thread and of V8's helper threads, which mark, sweep and
// compile in the background; main waited: how long the JavaScript thread was ready to run but
// waited for its core, from the scheduler's own count; promoted: how much the old generation grew
// across the second's scavenges, which is what brings the next major collection nearer)
// (the cores as the whole machine used them: a late loop with little CPU of its own is a core
// taken by another process, or a process waiting on the disk)
// Lines, not a profile: the bench lines them up with its own slowest requests by time.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import pg from 'pg';

const FILE = process.env.BENCH_STALL_TRACE!;
const WINDOW_MS = 100;
const LOOP_MS = 20;
const GC_MS = 10;
const SQL_MS = 50;

const write = (line: string): void => appendFileSync(FILE, `${new Date().toISOString()} ${process.pid} ${line}\n`);

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
setInterval(() => {
  const maxMs = delay.max / 1e6;
  if (maxMs > LOOP_MS) write(`loop late ${Math.round(maxMs)} ms`);
  delay.reset();
}, WINDOW_MS).unref();

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
/** GC pauses of the current second, by kind: total milliseconds and count. */
let gcThisSecond = new Map<string, { ms: number; count: number }>();
/** The old generation's growth over the second's scavenges: what they promoted, near enough. */
let promotedThisSecond = 0;
const oldGenerationBytes = (): number =>
  getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'old_space' || space.space_name === 'large_object_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);
let oldGenerationBefore = oldGenerationBytes();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (Reflect.get(entry, 'detail') as { kind?: number } | undefined)?.kind;
    const oldGeneration = oldGenerationBytes();
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) promotedThisSecond += Math.max(oldGeneration - oldGenerationBefore, 0);
    oldGenerationBefore = oldGeneration;
    const name = GC_KINDS[kind ?? -1] ?? String(kind);
    const sum = gcThisSecond.get(name) ?? { ms: 0, count: 0 };
    sum.ms += entry.duration;
    sum.count++;
    gcThisSecond.set(name, sum);
    if (entry.duration > GC_MS) write(`gc ${name} ${Math.round(entry.duration)} ms`);
  }
}).observe({ entryTypes: ['gc'] });

/** Per core: [busy, all] jiffies from /proc/stat; and the machine's iowait. */
function coreTimes(): { cores: [number, number][]; iowait: number; all: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const fields = (line: string) => line.trim().split(/\s+/).slice(1, 9).map(Number);
  const cores = lines
    .filter((line) => /^cpu\d/.test(line))
    .map((line) => {
      const [user, nice, system, idle, iowait, irq, softirq, steal] = fields(line);
      const busy = user + nice + system + irq + softirq + steal;
      return [busy, busy + idle + iowait] as [number, number];
    });
  const total = fields(lines[0]);
  return { cores, iowait: total[4], all: total.reduce((a, b) => a + b, 0) };
}
let coresBefore = coreTimes();
function coresLine(): string {
  const now = coreTimes();
  const busy = now.cores.map(([b, all], i) =>
    Math.round(((b - coresBefore.cores[i][0]) / Math.max(all - coresBefore.cores[i][1], 1)) * 100),
  );
  const iowait = Math.round(((now.iowait - coresBefore.iowait) / Math.max(now.all - coresBefore.all, 1)) * 100);
  coresBefore = now;
  return `cores ${busy.join('/')} % iowait ${iowait} %`;
}

/** CPU (user + system) of a thread of this process, and its time waiting for a core, in ms. */
function threadTimes(tid: string): { cpu: number; waited: number } {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // proc(5): fields 14 and 15 are utime and stime in clock ticks (100 a second on Linux);
  // schedstat's second number is the time spent waiting on a run queue, in nanoseconds.
  const cpu = (Number(fields[11]) + Number(fields[12])) * 10;
  const waited = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  return { cpu, waited };
}
function threadsNow(): { main: number; helpers: number; waited: number } {
  const main = threadTimes(String(process.pid));
  let helpers = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'V8Worker') helpers += threadTimes(tid).cpu;
  }
  return { main: main.cpu, helpers, waited: main.waited };
}
let threadsBefore = threadsNow();
function threadsLine(): string {
  const now = threadsNow();
  const line =
    `threads ${now.main - threadsBefore.main}+${now.helpers - threadsBefore.helpers}, ` +
    `main waited ${Math.round(now.waited - threadsBefore.waited)}`;
  threadsBefore = now;
  return line;
}

let cpuBefore = process.cpuUsage();
setInterval(() => {
  const cpu = process.cpuUsage(cpuBefore);
  cpuBefore = process.cpuUsage();
  const gc = [...gcThisSecond].map(([name, sum]) => `${name} ${sum.ms.toFixed(1)}/${sum.count}`).join(', ');
  gcThisSecond = new Map();
  const promoted = (promotedThisSecond / 1048576).toFixed(1);
  promotedThisSecond = 0;
  const { heapUsed, heapTotal } = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  // The kernel's share (the system time) and what the process holds open tell a busier second that
  // allocates no more from one that does more work: sockets opened and closed, timers piling up.
  const resources = process.getActiveResourcesInfo();
  const count = (type: string) => resources.filter((resource) => resource === type).length;
  write(
    `second cpu ${Math.round((cpu.user + cpu.system) / 1000)} (user ${Math.round(cpu.user / 1000)}) ${threadsLine()} gc ${gc || '-'} promoted ${promoted} MB ` +
      `heap ${mb(heapUsed)}/${mb(heapTotal)} MB sockets ${count('TCPSocketWrap')} timers ${count('Timeout')} ${coresLine()}`,
  );
}, 1000).unref();

/** Writes `line(ms)` once `result` (when it is a promise) settles later than SQL_MS after `started`. */
function whenSlow(result: unknown, started: number, line: (ms: number) => string): void {
  if (!(result instanceof Promise)) return;
  void result.then(
    () => {
      const ms = performance.now() - started;
      if (ms > SQL_MS) write(line(Math.round(ms)));
    },
    () => undefined,
  );
}

// Every statement of TypeORM and of raw pg goes through Client#query; a promise is what both use.
const query = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
Reflect.set(pg.Client.prototype, 'query', function timedQuery(this: pg.Client, ...args: unknown[]) {
  const started = performance.now();
  const result = query.apply(this, args);
  whenSlow(result, started, (ms) => `sql ${ms} ms ${describeStatement(args[0])}`);
  return result;
});
const connect = Reflect.get(pg.Pool.prototype, 'connect') as (this: pg.Pool, ...args: unknown[]) => unknown;
Reflect.set(pg.Pool.prototype, 'connect', function timedConnect(this: pg.Pool, ...args: unknown[]) {
  const started = performance.now();
  const result = connect.apply(this, args);
  whenSlow(result, started, (ms) => `pool checkout ${ms} ms (${this.totalCount} open, ${this.waitingCount} waiting)`);
  return result;
});

function describeStatement(first: unknown): string {
  const named = first as { name?: string; text?: string } | string | undefined;
  if (typeof named === 'string') return named.replace(/\s+/g, ' ').slice(0, 80);
  return named?.name ?? named?.text?.replace(/\s+/g, ' ').slice(0, 80) ?? '?';
}
