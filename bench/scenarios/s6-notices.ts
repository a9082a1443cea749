import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { AppConfig } from '#config/app-config.js';
import { CORE_NOTICE_TYPES } from '#core/notices/outbox/notice-types.js';
import { Webhook } from 'standardwebhooks';
import { buildNoticeBody, checkNoticeBody, type NoticeBody } from '#core/notices/outbox/notice-body.js';
import { NOTICE_CHANNEL } from '#core/notices/outbox/notice-channel.js';
import { SecretsCipher } from '#core/secrets/secrets-cipher.js';
import { newId } from '#database/new-id.js';
import { ARTEFACTS, type Arm, type Bench, type ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { PinnedProcess } from '../harness/pinned-process.js';
import { preciseNow, Receiver } from '../harness/receiver.js';
import { serviceCpu, serviceCpuPer, type ServiceCpu } from '../harness/service-cpu.js';
import { median, percentile } from '../harness/stats.js';
import {
  BARE_QUEUE,
  barePrefix,
  FLOOR_ATTEMPTS_TABLE,
  RECORDING_QUEUE,
  type BareJobData,
  type RecordingJobData,
} from '../servers/bare-bullmq-queue.js';
import type { SenderInput } from '../servers/undici-sender.js';
import { APP_CORE, BENCH_SECRETS, REDIS_URL, RUN_NAME } from '../settings.js';

/** The worker's delivery concurrency (NoticeDeliveryProcessor): the baselines keep as many in flight. */
const DELIVERY_CONCURRENCY = 20;
/** The worker's pool: the bench sets no DATABASE_POOL_SIZE, so the default. The recording floor's is as large. */
const WORKER_POOL_SIZE = new AppConfig().DATABASE_POOL_SIZE;
/**
 * The worker's settings for this scenario, reported with the figures. The receiver is on loopback,
 * which WEBHOOKS_ALLOW_PRIVATE lets through and production refuses (libs/config/src/app-config.ts):
 * NODE_ENV is only read by those configuration checks, so the worker runs as `development`.
 */
export const WORKER_SETTINGS = { NODE_ENV: 'development', WEBHOOKS_ALLOW_PRIVATE: 'true', NOTICE_RELAY_POLL_MS: '1000' };
const ROUND_TIMEOUT_MS = 120_000;

export interface Notice {
  businessId: string;
  body: NoticeBody;
}

interface EndpointSecrets {
  byBusinessId: Map<string, string>;
  bySlug: Map<string, string>;
  /** Each business's endpoint, for the recording floor's attempt rows. */
  endpointByBusinessId: Map<string, { id: string; apiVersion: string }>;
}

interface DeliverySample {
  deliveries: number;
  /**
   * Deliveries per second: from the commit (worker), the start of processing of jobs already
   * queued (bare BullMQ workers) or the first send (undici loop) to the last arrival.
   */
  rate: number;
  cpuUsPerDelivery: number;
  /**
   * PostgreSQL's and Redis's CPU per delivery over the round (service-cpu.ts). The worker's
   * PostgreSQL time includes the round's commit of the notices, as a write's would be.
   */
  engineCpuUsPerDelivery?: ServiceCpu;
}

/**
 * S6, change notices: how fast the worker delivers committed notices (relay, queue, signed POST,
 * attempt recorded) against the floor of its engine, a bare BullMQ worker whose jobs carry the
 * signed POST and nothing else; against the same bare worker recording each attempt in a table
 * like ours, which D9 requires (issue 37: the headline); and against a plain undici loop POSTing
 * the same signed bodies to the same loopback receiver; then the commit-to-receipt latency at a
 * quarter of the worker's rate.
 */
export async function noticesScenario(bench: Bench): Promise<ScenarioReport> {
  const receiver = await Receiver.start();
  const pool = new pg.Pool({ connectionString: bench.runUrl, max: 8 });
  const secrets = await prepareEndpoints(pool, receiver.url);
  await createFloorAttempts(pool);
  let worker = await bench.startWorker(WORKER_SETTINGS);
  const bare = await BareWorker.start<BareJobData>(receiver, {
    name: 'bare BullMQ worker',
    script: 'bare-bullmq-worker.js',
    queue: BARE_QUEUE,
    jobData: (n) => bareJobData(n, receiver, secrets),
  });
  const recording = await BareWorker.start<RecordingJobData>(receiver, {
    name: 'bare BullMQ worker recording the attempt',
    script: 'bare-bullmq-recording-worker.js',
    queue: RECORDING_QUEUE,
    env: { DATABASE_URL: bench.runUrl, POOL_SIZE: String(WORKER_POOL_SIZE) },
    jobData: (n) => recordingJobData(n, receiver, secrets),
  });
  try {
    const notices = noticeMaker(bench);
    const checks: Record<string, unknown> = {};
    const workerArm: Arm<DeliverySample> = {
      name: 'worker',
      run: async (_seconds, warmUp) => {
        const sample = await workerRound(worker, pool, receiver, notices(roundSize(bench, warmUp)));
        checks.workerSignature = verifyLast(receiver, secrets);
        return sample;
      },
      describe: describeDeliveries,
    };
    const bareArm: Arm<DeliverySample> = {
      name: 'bare BullMQ worker',
      run: async (_seconds, warmUp) => {
        const sample = await bare.round(notices(roundSize(bench, warmUp)));
        checks.bareSignature = verifyLast(receiver, secrets);
        return sample;
      },
      describe: describeDeliveries,
    };
    let recordedDeliveries = 0;
    const recordingArm: Arm<DeliverySample> = {
      name: 'bare BullMQ worker recording the attempt',
      run: async (_seconds, warmUp) => {
        const sample = await recording.round(notices(roundSize(bench, warmUp)));
        recordedDeliveries += sample.deliveries;
        checks.recordingSignature = verifyLast(receiver, secrets);
        return sample;
      },
      describe: describeDeliveries,
    };
    const senderArm: Arm<DeliverySample> = {
      name: 'undici loop',
      run: async (_seconds, warmUp) => {
        const sample = await senderRound(receiver, notices(roundSize(bench, warmUp)), secrets);
        checks.senderSignature = verifyLast(receiver, secrets);
        return sample;
      },
      describe: describeDeliveries,
    };
    const samples = await bench.interleave('S6', [workerArm, bareArm, recordingArm, senderArm]);
    checks.floorAttempts = await checkFloorAttempts(pool, recordedDeliveries);
    await pool.query(`DROP TABLE ${FLOOR_ATTEMPTS_TABLE}`);
    const workerRates = samples.worker.map((s) => s.rate);
    const bareRates = samples['bare BullMQ worker'].map((s) => s.rate);
    const recordingSamples = samples['bare BullMQ worker recording the attempt'];
    const recordingRates = recordingSamples.map((s) => s.rate);
    const latency = await latencyRun(bench.options.latencySeconds, pool, receiver, notices, median(workerRates) / 4);
    bench.log(`  S6 latency at ${latency.rate.toFixed(0)}/s: p50 ${latency.p50Ms.toFixed(1)} ms, p99 ${latency.p99Ms.toFixed(1)} ms`);
    const report: ScenarioReport = {
      id: 'S6',
      title:
        'Change notices: worker deliveries against a bare BullMQ worker, with and without the attempt recorded, and a plain undici loop',
      method:
        `Each round commits ${bench.options.noticesPerRound} notices in one transaction (one endpoint per business, 100 businesses) and times commit → last arrival at a loopback receiver on the generator core: the worker's time includes its relay (reading the notices, inserting the deliveries, adding the jobs). ` +
        `The bare BullMQ worker (bench/servers/bare-bullmq-worker.ts, same Redis, concurrency ${DELIVERY_CONCURRENCY}, finished jobs removed, BullMQ's defaults otherwise) gets the same number of jobs, each carrying the body to sign and its endpoint's secret (the worker's jobs carry three ids and read the rest from the database), added in bulk to its own queue while it is paused; it is timed from the start of its first job to the last arrival, so its figure leaves out adding the jobs, which the worker's includes. ` +
        `The bare BullMQ worker recording the attempt (bench/servers/bare-bullmq-recording-worker.ts, the headline's floor: D9 needs every attempt recorded) is the same worker, run and timed the same way on a queue of its own, whose processor then writes one attempt row per delivery to ${FLOOR_ATTEMPTS_TABLE}, a table made like delivery_attempts (same columns, types, constraints and indexes; not its foreign key to notice_deliveries, whose rows the floor has not), with the columns the worker fills on a success: one parameterised INSERT, autocommitted, over a pg pool of ${WORKER_POOL_SIZE} (the worker's), its values from the job (delivery, endpoint, attempt number, address, version) and the exchange. ` +
        `The undici loop POSTs the same bodies, signed the same way, with undici's keep-alive pool and ${DELIVERY_CONCURRENCY} in flight, timed from its first send. All four run pinned to the same core. Latency: one notice per transaction at a quarter of the worker's median rate.`,
      figures: [
        figure(
          'S6',
          'worker / bare BullMQ worker recording the attempt (deliveries per second)',
          'ratio',
          ratios(workerRates, recordingRates),
          { op: '>=', value: 0.7 },
        ),
        figure('S6', 'worker / bare BullMQ worker (deliveries per second)', 'ratio', ratios(workerRates, bareRates)),
        figure(
          'S6',
          'worker / undici loop (deliveries per second)',
          'ratio',
          ratios(
            workerRates,
            samples['undici loop'].map((s) => s.rate),
          ),
        ),
        figure('S6', 'worker deliveries per second', '/s', workerRates),
        figure('S6', 'bare BullMQ worker deliveries per second', '/s', bareRates),
        figure('S6', 'bare BullMQ worker recording the attempt deliveries per second', '/s', recordingRates),
        figure(
          'S6',
          'undici loop deliveries per second',
          '/s',
          samples['undici loop'].map((s) => s.rate),
        ),
        figure(
          'S6',
          'worker CPU per delivery',
          'µs',
          samples.worker.map((s) => s.cpuUsPerDelivery),
        ),
        figure(
          'S6',
          'bare BullMQ worker CPU per delivery',
          'µs',
          samples['bare BullMQ worker'].map((s) => s.cpuUsPerDelivery),
        ),
        figure(
          'S6',
          'bare BullMQ worker recording the attempt CPU per delivery',
          'µs',
          recordingSamples.map((s) => s.cpuUsPerDelivery),
        ),
        figure(
          'S6',
          'undici loop CPU per delivery',
          'µs',
          samples['undici loop'].map((s) => s.cpuUsPerDelivery),
        ),
        figure(
          'S6',
          "worker: PostgreSQL CPU per delivery (the notices' insert included)",
          'µs',
          samples.worker.map((s) => s.engineCpuUsPerDelivery!.postgres),
        ),
        figure(
          'S6',
          'worker: Redis CPU per delivery',
          'µs',
          samples.worker.map((s) => s.engineCpuUsPerDelivery!.redis),
        ),
        figure(
          'S6',
          'bare BullMQ worker: Redis CPU per delivery',
          'µs',
          samples['bare BullMQ worker'].map((s) => s.engineCpuUsPerDelivery!.redis),
        ),
        figure(
          'S6',
          'bare BullMQ worker recording the attempt: PostgreSQL CPU per delivery',
          'µs',
          recordingSamples.map((s) => s.engineCpuUsPerDelivery!.postgres),
        ),
        figure(
          'S6',
          'bare BullMQ worker recording the attempt: Redis CPU per delivery',
          'µs',
          recordingSamples.map((s) => s.engineCpuUsPerDelivery!.redis),
        ),
        figure('S6', `commit-to-receipt p50 at ${Math.round(latency.rate)}/s`, 'ms', [latency.p50Ms], { op: '<=', value: 50 }),
        figure('S6', `commit-to-receipt p99 at ${Math.round(latency.rate)}/s`, 'ms', [latency.p99Ms], { op: '<=', value: 250 }),
      ],
      rounds: samples,
      settings: {
        worker: bench.publicSettings(WORKER_SETTINGS),
        deliveryConcurrency: DELIVERY_CONCURRENCY,
        recordingFloorPoolSize: WORKER_POOL_SIZE,
      },
      checks: { ...checks, latency },
    };
    if (bench.wantsProfile(report)) {
      await worker.stop();
      const profiled = bench.newProfile('S6');
      worker = await bench.startWorker(WORKER_SETTINGS, profiled);
      await workerRound(worker, pool, receiver, notices(roundSize(bench, true)));
      worker.send('mark');
      const measured = await workerRound(worker, pool, receiver, notices(roundSize(bench)));
      bench.log(`  S6 profiled: ${describeDeliveries(measured)}`);
      const cpuMs = (measured.cpuUsPerDelivery * measured.deliveries) / 1000;
      report.profile = await bench.finishProfile(worker, profiled, 'worker under S6 load', measured.deliveries, cpuMs);
    }
    return report;
  } finally {
    await worker.stop();
    await bare.stop();
    await recording.stop();
    await pool.end();
    await receiver.close();
  }
}

/** A round is sized in notices, not seconds: noticesPerRound, and a fifth of that to warm up. */
function roundSize(bench: Bench, warmUp = false): number {
  return warmUp ? Math.ceil(bench.options.noticesPerRound / 5) : bench.options.noticesPerRound;
}

function describeDeliveries(s: DeliverySample): string {
  return `${s.deliveries} in ${(s.deliveries / s.rate).toFixed(2)} s = ${Math.round(s.rate)}/s, ${Math.round(s.cpuUsPerDelivery)} µs CPU/delivery`;
}

/**
 * Points every endpoint at the receiver, seals its secret as the service stores it (the template's
 * are plain, written by SQL; the worker opens sealed ones), and marks what earlier scenarios left
 * in the outboxes (S4's bookings) as relayed, so the worker delivers only this scenario's notices.
 * Returns each business's endpoint secret, in the clear.
 */
export async function prepareEndpoints(pool: pg.Pool, url: string): Promise<EndpointSecrets> {
  await pool.query('UPDATE webhook_endpoints SET url = $1', [url]);
  await pool.query('UPDATE notices SET relayed_at = now() WHERE relayed_at IS NULL');
  await pool.query('UPDATE outbound_emails SET relayed_at = now() WHERE relayed_at IS NULL');
  const cipher = new SecretsCipher({ SECRETS_KEY: BENCH_SECRETS.SECRETS_KEY } as AppConfig);
  const { rows } = await pool.query<{ id: string; business_id: string; slug: string; secret: string; api_version: string }>(
    'SELECT e.id, e.business_id, b.slug, e.secret, e.api_version FROM webhook_endpoints e JOIN businesses b ON b.id = e.business_id',
  );
  const plain = rows.map((row) => ({ ...row, secret: cipher.open(row.secret, row.id) }));
  const unsealed = rows.filter((row) => row.secret.startsWith('whsec_'));
  if (unsealed.length > 0) {
    await pool.query(
      `UPDATE webhook_endpoints e SET secret = t.sealed FROM unnest($1::uuid[], $2::text[]) AS t(id, sealed) WHERE e.id = t.id`,
      [unsealed.map((row) => row.id), unsealed.map((row) => cipher.seal(row.secret, row.id))],
    );
  }
  return {
    byBusinessId: new Map(plain.map((row) => [row.business_id, row.secret])),
    bySlug: new Map(plain.map((row) => [row.slug, row.secret])),
    endpointByBusinessId: new Map(rows.map((row) => [row.business_id, { id: row.id, apiVersion: row.api_version }])),
  };
}

/**
 * The recording floor's attempt log, made afresh like delivery_attempts: LIKE … INCLUDING ALL
 * copies the columns, their types, NOT NULL and defaults, the CHECK constraints and the indexes
 * (the primary key, delivery_attempts_delivery_idx and delivery_attempts_endpoint_idx), so it
 * follows the migrations. It never copies foreign keys: delivery_attempts' one, delivery_id to
 * notice_deliveries (ON DELETE CASCADE), is left out because the floor has no deliveries for it to
 * point at. The worker pays that key's check on every attempt (a lookup of the delivery's primary
 * key); the floor does not.
 */
async function createFloorAttempts(pool: pg.Pool): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_ATTEMPTS_TABLE}`);
  await pool.query(`CREATE TABLE ${FLOOR_ATTEMPTS_TABLE} (LIKE delivery_attempts INCLUDING ALL)`);
}

/** Whether the recording floor wrote one row per delivery it made (warm-up included); throws if not, as it then did less than its figures say. */
async function checkFloorAttempts(pool: pg.Pool, deliveries: number): Promise<{ rows: number; deliveries: number }> {
  const { rows } = await pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${FLOOR_ATTEMPTS_TABLE}`);
  if (rows[0].count !== deliveries) {
    throw new Error(`The recording floor wrote ${rows[0].count} attempt rows for ${deliveries} deliveries`);
  }
  return { rows: rows[0].count, deliveries };
}

/** Notices as the API records them (appointment.created), spread over `businesses` (by default the 100 of the catalogue). */
export function noticeMaker(bench: Bench, businesses = bench.catalogue.businesses): (count: number) => Notice[] {
  let made = 0;
  return (count) =>
    Array.from({ length: count }, () => {
      const business = businesses[made++ % businesses.length];
      const body = buildNoticeBody({
        type: 'appointment.created',
        businessSlug: business.slug,
        subjectId: business.appointmentIds[0],
        occurredAt: new Date(),
      });
      return { businessId: business.id, body };
    });
}

/** Inserts the notices in one transaction that NOTIFYs the worker, as a write does; returns when it committed. */
export async function commitNotices(pool: pg.Pool, notices: Notice[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO notices (id, business_id, type, payload)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[])`,
      [
        notices.map((n) => n.body.id),
        notices.map((n) => n.businessId),
        notices.map((n) => n.body.type),
        notices.map((n) => JSON.stringify(n.body)),
      ],
    );
    await client.query('SELECT pg_notify($1, $2)', [NOTICE_CHANNEL, '']);
    await client.query('COMMIT');
    return preciseNow();
  } finally {
    client.release();
  }
}

async function workerRound(worker: PinnedProcess, pool: pg.Pool, receiver: Receiver, notices: Notice[]): Promise<DeliverySample> {
  const arrived = receiver.expect(
    notices.map((n) => n.body.id),
    ROUND_TIMEOUT_MS,
  );
  const cpuBefore = worker.cpuMs();
  const enginesBefore = serviceCpu();
  const committedAt = await commitNotices(pool, notices);
  const lastArrival = await Promise.race([arrived, exitedEarly(worker)]);
  return {
    deliveries: notices.length,
    rate: notices.length / ((lastArrival - committedAt) / 1000),
    cpuUsPerDelivery: ((worker.cpuMs() - cpuBefore) * 1000) / notices.length,
    engineCpuUsPerDelivery: serviceCpuPer(enginesBefore, notices.length),
  };
}

/** Rejects when the process exits: a worker that refused its settings then fails the round at once, with its own words. */
async function exitedEarly(process: PinnedProcess): Promise<never> {
  const code = await process.exited;
  throw new Error(`${process.name} exited (${code}):\n${process.tail()}`);
}

async function senderRound(receiver: Receiver, notices: Notice[], secrets: EndpointSecrets): Promise<DeliverySample> {
  const input: SenderInput = {
    url: receiver.url,
    concurrency: DELIVERY_CONCURRENCY,
    notices: notices.map((n) => ({
      id: n.body.id,
      body: bodyAsSent(n),
      secrets: [secrets.byBusinessId.get(n.businessId)!],
    })),
  };
  mkdirSync(ARTEFACTS, { recursive: true });
  const file = join(ARTEFACTS, 'sender-input.json');
  writeFileSync(file, JSON.stringify(input));
  const arrived = receiver.expect(
    input.notices.map((n) => n.id),
    ROUND_TIMEOUT_MS,
  );
  const sender = await PinnedProcess.start({
    name: 'undici loop',
    core: APP_CORE,
    nodeArgs: ['dist/bench/servers/undici-sender.js'],
    env: { PATH: process.env.PATH, NODE_ENV: 'production', SENDER_INPUT: file },
  });
  const code = await sender.exited;
  if (code !== 0) throw new Error(`The undici sender failed (${code}):\n${sender.tail()}`);
  const lastArrival = await arrived;
  const { startedAt, cpuMs } = JSON.parse(sender.tail().trim().split('\n').at(-1)!) as { startedAt: number; cpuMs: number };
  return {
    deliveries: notices.length,
    rate: notices.length / ((lastArrival - startedAt) / 1000),
    cpuUsPerDelivery: (cpuMs * 1000) / notices.length,
  };
}

/** The bytes the worker sends: the stored body, re-read in docs/design-record.md#d9's field order. */
function bodyAsSent(notice: Notice): string {
  return JSON.stringify(checkNoticeBody(notice.body, CORE_NOTICE_TYPES));
}

/** The bare BullMQ worker's job: the body to sign and its endpoint's secret. */
function bareJobData(notice: Notice, receiver: Receiver, secrets: EndpointSecrets): BareJobData {
  return { id: notice.body.id, url: receiver.url, body: bodyAsSent(notice), secrets: [secrets.byBusinessId.get(notice.businessId)!] };
}

/**
 * The recording floor's job: the same, and the attempt row's values the worker reads from its
 * delivery: a delivery id made here (UUIDv7, as the relay makes them), the business's endpoint and
 * version, and attempt 1, as a first delivery's.
 */
function recordingJobData(notice: Notice, receiver: Receiver, secrets: EndpointSecrets): RecordingJobData {
  const endpoint = secrets.endpointByBusinessId.get(notice.businessId)!;
  return {
    ...bareJobData(notice, receiver, secrets),
    deliveryId: newId(),
    endpointId: endpoint.id,
    attempt: 1,
    apiVersion: endpoint.apiVersion,
  };
}

interface BareWorkerSetup<T extends BareJobData> {
  name: string;
  /** Its server, in dist/bench/servers. */
  script: string;
  queue: string;
  env?: Record<string, string>;
  jobData: (notice: Notice) => T;
}

/**
 * A bare BullMQ worker (bench/servers/bare-bullmq-runner.ts), started once (warm, like the worker)
 * and paused between rounds: each round's jobs are queued while it is paused, then it is told to
 * go, and timed from its first job.
 */
class BareWorker<T extends BareJobData> {
  private constructor(
    private readonly process: PinnedProcess,
    private readonly queue: Queue<BareJobData>,
    private readonly receiver: Receiver,
    private readonly jobData: (notice: Notice) => T,
  ) {}

  static async start<T extends BareJobData>(receiver: Receiver, setup: BareWorkerSetup<T>): Promise<BareWorker<T>> {
    const prefix = barePrefix(RUN_NAME);
    const process = await PinnedProcess.start({
      name: setup.name,
      core: APP_CORE,
      nodeArgs: [`dist/bench/servers/${setup.script}`],
      env: {
        PATH: globalThis.process.env.PATH,
        NODE_ENV: 'production',
        REDIS_URL,
        BARE_PREFIX: prefix,
        CONCURRENCY: String(DELIVERY_CONCURRENCY),
        ...setup.env,
      },
      ipc: true,
    });
    await process.receive('ready');
    // Typed by what every bare worker's job carries: a queue of a type parameter does not type its jobs' names.
    const queue = new Queue<BareJobData>(setup.queue, {
      connection: { url: REDIS_URL },
      prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    return new BareWorker(process, queue, receiver, setup.jobData);
  }

  async round(notices: Notice[]): Promise<DeliverySample> {
    await this.queue.addBulk(
      notices.map((n) => ({
        name: 'deliver',
        data: this.jobData(n),
        opts: { jobId: n.body.id },
      })),
    );
    const arrived = this.receiver.expect(
      notices.map((n) => n.body.id),
      ROUND_TIMEOUT_MS,
    );
    const cpuBefore = this.process.cpuMs();
    const enginesBefore = serviceCpu();
    this.process.send('go');
    const lastArrival = await Promise.race([arrived, exitedEarly(this.process)]);
    const cpuMs = this.process.cpuMs() - cpuBefore;
    const engineCpuUsPerDelivery = serviceCpuPer(enginesBefore, notices.length);
    const paused = this.process.receive('paused ');
    this.process.send('pause');
    // Timed from the round's first job: how soon a resumed BullMQ worker wakes up is not its pace.
    const startedAt = Number((await paused).slice('paused '.length));
    return {
      deliveries: notices.length,
      rate: notices.length / ((lastArrival - startedAt) / 1000),
      cpuUsPerDelivery: (cpuMs * 1000) / notices.length,
      engineCpuUsPerDelivery,
    };
  }

  async stop(): Promise<void> {
    await this.queue.close();
    await this.process.stop();
  }
}

/** Checks the last received notice's signature as a receiver would, with the standardwebhooks library (throws if wrong). */
function verifyLast(receiver: Receiver, secrets: EndpointSecrets): true {
  const last = receiver.last!;
  const { business } = JSON.parse(last.body) as { business: string };
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(last.headers[h])]));
  new Webhook(secrets.bySlug.get(business)!).verify(last.body, headers);
  return true;
}

export interface LatencyResult {
  /** Notices committed per second. */
  rate: number;
  notices: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Commits one notice per transaction at a steady `rate` (open loop: the schedule does not wait
 * for deliveries) and measures, per notice, commit → arrival at the receiver.
 */
export async function latencyRun(seconds: number, pool: pg.Pool, receiver: Receiver, notices: (count: number) => Notice[], rate: number) {
  const batch = notices(Math.max(1, Math.round(rate * seconds)));
  const arrived = receiver.expect(
    batch.map((n) => n.body.id),
    ROUND_TIMEOUT_MS + seconds * 1000,
  );
  const committed = new Map<string, number>();
  const writes: Promise<void>[] = [];
  const start = preciseNow();
  for (const [i, notice] of batch.entries()) {
    const wait = start + (i * 1000) / rate - preciseNow();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    writes.push(commitNotices(pool, [notice]).then((at) => void committed.set(notice.body.id, at)));
  }
  await Promise.all(writes);
  await arrived;
  const latencies = batch.map((n) => receiver.arrivals.get(n.body.id)! - committed.get(n.body.id)!);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    rate: Math.round(rate),
    notices: batch.length,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(Math.max(...latencies)),
  } satisfies LatencyResult;
}
