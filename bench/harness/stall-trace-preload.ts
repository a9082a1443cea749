// Loaded with `node --import` into the API and the worker when the bench runs with --trace-stalls
// (issue 38: what a neighbour waits on). It writes one line per event that could hold every
// request of the process at once, with its wall-clock time, to BENCH_STALL_TRACE:
//   loop   the event loop was late by more than LOOP_MS within a window of WINDOW_MS
//   gc     a garbage-collector pause longer than GC_MS, with its kind
//   sql    a statement (or a pool checkout) that took longer than SQL_MS from the caller's side
// Lines, not a profile: the bench lines them up with its own slowest requests by time.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
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
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration <= GC_MS) continue;
    const kind = (Reflect.get(entry, 'detail') as { kind?: number } | undefined)?.kind;
    write(`gc ${GC_KINDS[kind ?? -1] ?? String(kind)} ${Math.round(entry.duration)} ms`);
  }
}).observe({ entryTypes: ['gc'] });

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
