// Loaded with `node --cpu-prof --import` into a process the bench profiles (the API or the
// worker). It counts the SQL statements the process sends, notes when the measured load starts
// (the profile's clock is the monotonic one of process.hrtime), and exits cleanly when the bench
// says so over IPC: --cpu-prof writes its profile only on a normal exit, and the apps' shutdown
// hooks may end a SIGTERM by re-raising the signal, which would lose it.
import { writeFileSync } from 'node:fs';
import pg from 'pg';

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
  } else if (message === 'exit') {
    writeFileSync(process.env.BENCH_PROFILE_NOTES!, JSON.stringify({ statements: statements - statementsAtMark, markMicros }));
    process.exit(0);
  }
});
