// `npm run bench`: the benchmark suite (issue 7). Builds the template database once, copies it
// for the run, then measures each scenario beside its baseline in the same run, and prints and
// writes the figures. Figures, not assertions: a missed target is reported (with a CPU profile
// of where the time goes), and the exit code is 0 unless the harness itself failed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { prepareCatalogue } from './data/catalogue.js';
import { createRunDatabase, dropRunDatabase, ensureTemplate } from './data/template.js';
import { ARTEFACTS, Bench, type ScenarioReport } from './harness/bench.js';
import { pinSelf } from './harness/pinned-process.js';
import { costsSummary, markdownTable, textTable } from './report.js';
import { harnessCheck } from './scenarios/harness-check.js';
import { meScenario } from './scenarios/s1-me.js';
import { appointmentScenario } from './scenarios/s2-appointment.js';
import { listScenario } from './scenarios/s3-list.js';
import { bookingScenario } from './scenarios/s4-booking.js';
import { floodScenario } from './scenarios/s5-flood.js';
import { noticesScenario } from './scenarios/s6-notices.js';
import { availabilityScenario } from './scenarios/s7-availability.js';
import { fairDeliveryScenario } from './scenarios/s8-fair-delivery.js';
import { noisyNeighbourScenario } from './scenarios/s9-noisy-neighbour.js';
import { APP_CORE, databaseUrl, LOAD_CORE, parseArgs, REDIS_URL, REPO_ROOT, RUN_NAME } from './settings.js';

const started = performance.now();
const log = (line: string): void => {
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(`[${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}] ${line}`);
};

/** Removes the run's BullMQ keys (QUEUE_PREFIX=RUN_NAME): jobs of an earlier run would point at rows that are gone. */
async function clearBenchQueues(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    for await (const keys of redis.scanStream({ match: `${RUN_NAME}:*`, count: 1000 })) {
      if ((keys as string[]).length > 0) await redis.unlink(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}

async function machine(serverUrl: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const postgres = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  await client.end();
  const redis = new Redis(REDIS_URL);
  const redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1];
  redis.disconnect();
  return {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    node: process.version,
    postgres,
    redis: redisVersion,
    pinning: `app processes on core ${APP_CORE}, load generator on core ${LOAD_CORE} (taskset); PostgreSQL and Redis unpinned`,
  };
}

function git(): { commit: string; dirty: boolean } {
  const run = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  return { commit: run('rev-parse', 'HEAD'), dirty: run('status', '--porcelain', '--', 'apps', 'libs').length > 0 };
}

const { options, rebuildData } = parseArgs(process.argv.slice(2));
pinSelf(LOAD_CORE);
const loadBefore = loadavg();
log(
  `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}${loadBefore[0] > 0.5 ? ' — the machine is busy: figures will be noisy' : ''}`,
);

const template = await ensureTemplate(rebuildData, log);
const runUrl = await createRunDatabase();
await clearBenchQueues();
const catalogue = await prepareCatalogue(runUrl);
log(`bench_run ready: ${catalogue.keys.length} keys, ${catalogue.businesses.length} businesses`);
const bench = new Bench(options, runUrl, catalogue, log);
const wanted = (id: string) => options.only.length === 0 || options.only.includes(id);
const scenarios: ScenarioReport[] = [];

try {
  const hello = await bench.startServer('raw node:http', 'raw-hello.js', '/');
  try {
    log('H0 harness check');
    scenarios.push(await harnessCheck(bench, hello));
    if (wanted('S1')) {
      log('S1 GET /me');
      scenarios.push(await meScenario(bench, hello));
    }
  } finally {
    await hello.process.stop();
  }
  const rest: [string, string, (b: Bench) => Promise<ScenarioReport>][] = [
    ['S2', 'GET /appointments/{id}', appointmentScenario],
    ['S3', 'GET /appointments, page 1 and page 4,000', listScenario],
    ['S4', 'POST /appointments', bookingScenario],
    ['S5', 'rate limiter flood', floodScenario],
    ['S6', 'change notices', noticesScenario],
    ['S7', 'GET /availability, 7 and 31 days', availabilityScenario],
    ['S8', 'fair delivery beside a tarpit', fairDeliveryScenario],
    ['S9', 'noisy neighbour', noisyNeighbourScenario],
  ];
  for (const [id, title, scenario] of rest) {
    if (!wanted(id)) continue;
    log(`${id} ${title}`);
    scenarios.push(await scenario(bench));
  }
} finally {
  await dropRunDatabase();
  await clearBenchQueues();
}

const runSeconds = Math.round((performance.now() - started) / 1000);
const complete = options.only.length === 0 && !options.quick;
const date = new Date().toISOString().slice(0, 10);
// Only a complete run is the record (a second one of the day gets -2, and so on, never replacing
// the first); smoke and partial runs go with the other artefacts.
const file = complete ? recordFile(date) : join(ARTEFACTS, `${date}-${RUN_NAME}-partial.json`);
mkdirSync(join(file, '..'), { recursive: true });
const results = {
  date: new Date().toISOString(),
  git: git(),
  machine: await machine(databaseUrl('postgres')),
  loadAverage: { before: loadBefore, after: loadavg() },
  options,
  data: { template, keys: catalogue.keys.length },
  runSeconds,
  figures: scenarios.flatMap((s) => s.figures),
  scenarios,
};
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);

console.log(`\n${textTable(scenarios)}\n`);
const costs = costsSummary(scenarios);
if (costs) console.log(`${costs}\n`);
console.log(`Run time ${Math.floor(runSeconds / 60)} min ${runSeconds % 60} s. Results: ${file.replace(`${REPO_ROOT}/`, '')}`);
console.log(`\nMarkdown, for docs/performance.md:\n\n${markdownTable(scenarios)}`);

function recordFile(date: string): string {
  const named = (n: number) => join(REPO_ROOT, 'bench', 'results', n === 1 ? `${date}.json` : `${date}-${n}.json`);
  let n = 1;
  while (existsSync(named(n))) n++;
  return named(n);
}
