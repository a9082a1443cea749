// Loaded with `node --cpu-prof --import` into a process the bench profiles (the API or the
// worker). It counts the SQL statements the process sends, notes when the measured load starts
// (the profile's clock is the monotonic one of process.hrtime), and exits cleanly when the bench
// says so over IPC: --cpu-prof writes its profile only on a normal exit, and the apps' shutdown
// hooks may end a SIGTERM by re-raising the signal, which would lose it.
// From the mark on it also samples what the process allocates, collected since or not, and writes
// that beside the notes (alloc.heapprofile): the garbage collector's share of a missed target is
// paid for by whatever allocated.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Session } from 'node:inspector/promises';
import pg from 'pg';

/** One sample per this many bytes allocated, on average. */
const ALLOCATION_SAMPLING_BYTES = 16 * 1024;
const inspector = new Session();
inspector.connect();

let statements = 0;
let statementsAtMark = 0;
let markMicros = 0;
// Every statement of TypeORM and of raw pg goes through Client#query, whatever its overload.
const query = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
Reflect.set(pg.Client.prototype, 'query', function countedQuery(this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return query.apply(this, args);
});

process.on('message', (message) => {
  if (message === 'mark') {
    statementsAtMark = statements;
    markMicros = Number(process.hrtime.bigint() / 1000n);
    // V8 takes the two include flags; Node's types do not list them yet.
    const sampling = {
      samplingInterval: ALLOCATION_SAMPLING_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    };
    void inspector.post('HeapProfiler.startSampling', sampling);
  } else if (message === 'exit') {
    void finish();
  }
});

async function finish(): Promise<void> {
  const notes = process.env.BENCH_PROFILE_NOTES!;
  if (markMicros > 0) {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    writeFileSync(join(dirname(notes), 'alloc.heapprofile'), JSON.stringify(profile));
  }
  writeFileSync(notes, JSON.stringify({ statements: statements - statementsAtMark, markMicros }));
  process.exit(0);
}
