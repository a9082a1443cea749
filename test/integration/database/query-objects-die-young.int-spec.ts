import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildApps, REPO_ROOT } from '../../utils/child-process.js';
import { testDatabaseUrl } from '../../utils/test-database.js';

/**
 * What the statement layer allocates for a statement dies young (docs/design-record.md, "Per-request
 * cost": "A query's objects die young"). The compiled Database, in a process of its own with a
 * small young generation, runs statements four at a time; V8's own count of what each
 * young-generation collection moved to the old generation (v8.GCProfiler) is compared with what
 * those collections found allocated. Through pg's promise form about a fifth of it was moved
 * (every statement's query, row description and rows), so the old generation filled at about 1 MB
 * a second under S9's light load and its major collections came every 20 s (docs/performance.md,
 * "Sixth look"). Asserting on bytes moved, not on time: how often the collector runs does not
 * change which objects outlive a statement.
 */
jest.setTimeout(180_000);

const PROBE = `
import { GCProfiler } from 'node:v8';
import { DataSource } from 'typeorm';
import { Database } from './dist/libs/database/src/database.js';
import { buildDataSourceOptions } from './dist/libs/database/src/data-source-options.js';
import { defineStatement } from './dist/libs/database/src/statement.js';

const dataSource = new DataSource(buildDataSourceOptions({ url: process.env.DATABASE_URL, poolSize: 4 }));
await dataSource.initialize();
const database = new Database(dataSource);
const READ = defineStatement({
  name: 'gc_probe_read',
  text: "SELECT n, 'row ' || n AS label, now() AS at, ARRAY['a', 'b'] AS tags FROM generate_series(1, 20) AS n",
});
const run = async (statements) => {
  for (let sent = 0; sent < statements; sent += 4) {
    await Promise.all([0, 1, 2, 3].map(() => database.rows(READ, [])));
  }
};
// Warm: the code compiled, the statement prepared on each connection.
await run(2000);
const profiler = new GCProfiler();
profiler.start();
await run(8000);
const { statistics } = profiler.stop();
const used = (side, names) =>
  side.heapSpaceStatistics.filter((space) => names.includes(space.spaceName)).reduce((sum, space) => sum + space.spaceUsedSize, 0);
const OLD = ['old_space', 'large_object_space'];
const YOUNG = ['new_space', 'new_large_object_space'];
let promoted = 0;
let collected = 0;
let scavenges = 0;
for (const gc of statistics) {
  if (gc.gcType !== 'Scavenge') continue;
  scavenges += 1;
  promoted += Math.max(used(gc.afterGC, OLD) - used(gc.beforeGC, OLD), 0);
  collected += used(gc.beforeGC, YOUNG);
}
await dataSource.destroy();
process.stdout.write(JSON.stringify({ scavenges, promoted, collected }));
`;

beforeAll(() => buildApps());

it('moves next to nothing of what its statements allocate to the old generation', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--max-semi-space-size=1', '--no-allocation-site-pretenuring', '--input-type=module', '--eval', PROBE],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH, DATABASE_URL: testDatabaseUrl() }, maxBuffer: 1024 * 1024 },
  );
  const { scavenges, promoted, collected } = JSON.parse(stdout) as { scavenges: number; promoted: number; collected: number };
  // Enough collections that an object alive across two of them would have been seen moving.
  expect(scavenges).toBeGreaterThan(20);
  expect(promoted / collected).toBeLessThan(0.02);
});
