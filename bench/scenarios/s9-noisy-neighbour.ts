import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon, { type AutocannonResult } from 'autocannon';
import pg from 'pg';
import { Agent, request } from 'undici';
import type { AppConfig } from '#config/app-config.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, type ApiKeyMode } from '#core/api-keys/api-key-format.js';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { SCOPES } from '#core/scopes/scope.js';
import { SecretsCipher } from '#core/secrets/secrets-cipher.js';
import { newId } from '#database/new-id.js';
import type { BusinessData } from '../data/catalogue.js';
import type { Bench, ScenarioReport, Service } from '../harness/bench.js';
import { figure, type Figure } from '../harness/figures.js';
import { paced } from '../harness/paced.js';
import type { PinnedProcess } from '../harness/pinned-process.js';
import { preciseNow, Receiver } from '../harness/receiver.js';
import { median, percentile } from '../harness/stats.js';
import { Tarpit } from '../harness/tarpit.js';
import { BENCH_SECRETS, REPO_ROOT } from '../settings.js';
import { commitNotices, noticeMaker, prepareEndpoints, WORKER_SETTINGS, type Notice } from './s6-notices.js';

/**
 * The API's settings beside the bench's usual ones: test pings go to a receiver on loopback, which
 * WEBHOOKS_ALLOW_PRIVATE lets through, and that setting is accepted only with NODE_ENV set to
 * development explicitly (libs/config/src/app-config.ts). NODE_ENV is read by nothing else.
 */
const API_SETTINGS = { NODE_ENV: 'development', WEBHOOKS_ALLOW_PRIVATE: 'true' };

/** Catalogue businesses (by slug order) of the victim and the hostile: neither the big one (0) nor those of the flood and race keys (1, 2). */
const VICTIM_INDEX = 3;
const HOSTILE_INDEX = 4;

/** The victim's reads, one per key in turn, started at a steady rate (open loop). */
const VICTIM_READ_RATE = 100;
/** Keys of the victim: each is used once a second, half of its 120 a minute. */
const VICTIM_KEYS = 100;
/** The victim's notices, one per transaction, at a steady rate (open loop). */
const VICTIM_NOTICE_RATE = 20;
/** A victim notice that has not arrived this long after its commit counts as not received. */
const NOTICE_DEADLINE_MS = 30_000;

/** Test pings the hostile keeps asking for at once; the first half through its sandbox's test keys. */
const HOSTILE_PINGS = 10;
/** Keys of each ping loop, in turn, so that no key goes past its own limit of 120 a minute. */
const KEYS_PER_PING_LOOP = 4;
/**
 * After a refused ping (429) a loop waits this long before it asks again: asking again at once would
 * make the pings a flood of requests, which S5 measures, instead of 10 pings kept under way.
 */
const PING_RETRY_PAUSE_MS = 250;
/** The hostile's endpoints in each mode (live, sandbox): the most a business may have (docs/design-record.md#d17). */
const ENDPOINTS_PER_MODE = 16;
/** The hostile's notices, one per transaction, live and sandbox in turn: each goes to its mode's 16 endpoints. */
const HOSTILE_NOTICE_RATE = 1;
/** Failed authentications a second from the victim's own address (well-formed keys that do not exist). */
const FLOOD_RATE = 500;
const FLOOD_CONNECTIONS = 10;
const FLOOD_KEYS = 1000;
/** The caps of docs/design-record.md#d24 at their defaults: test pings under way, and deliveries in flight, per business. */
const PINGS_PER_BUSINESS = 2;
const DELIVERIES_PER_BUSINESS = 8;
/** Seconds of hostile activity before the first round beside it: the tarpit fills, the flood passes the limit. */
const RAMP_SECONDS = 5;
/**
 * The "full legal rate" arm (docs/design-record.md#pool-share-per-business): the most keys a business
 * may have in each mode, live and test (D28), each sending its own limit of 120 requests a minute.
 */
const FULL_RATE_KEYS_PER_MODE = 10;
const FULL_RATE_PER_KEY_PER_MINUTE = 120;
const FULL_RATE = (2 * FULL_RATE_KEYS_PER_MODE * FULL_RATE_PER_KEY_PER_MINUTE) / 60;
/** The full-rate hostile's lists: its largest pages, the reads that cost the database most per request. */
// A partner's incremental sync, its largest pages (the appointment list needs `updatedSince`, or `from` and `to`).
const FULL_RATE_PATHS = [
  '/v1/api/appointments?updatedSince=2000-01-01T00:00:00Z&limit=100',
  '/v1/api/clients?updatedSince=2000-01-01T00:00:00Z&limit=100',
];

interface VictimSample {
  reads: number;
  readP50Ms: number;
  readP99Ms: number;
  readMaxMs: number;
  readStatuses: Record<string, number>;
  /** Reads answered other than 2xx, or not answered. */
  readFailures: number;
  notices: number;
  noticeP50Ms: number;
  noticeP99Ms: number;
  noticeMaxMs: number;
  /** Victim notices not received within NOTICE_DEADLINE_MS of their commit. */
  noticesMissing: number;
  /** CPU time over wall time, during the round's reads and notices. */
  apiCpuShare: number;
  workerCpuShare: number;
  /**
   * The load generator's own event-loop delay at its worst in the round: the reads and notices are
   * timed on that loop, so a late generator would count as a slow service. Its 10-ms resolution is
   * its floor.
   */
  generatorLoopDelayMaxMs: number;
}

interface Hostile {
  sandboxId: string;
  liveEndpointIds: string[];
  sandboxEndpointIds: string[];
  liveKeys: string[];
  testKeys: string[];
  /** Keys of the full-rate arm, used by nothing else (their minute's budget is whole): live ones, then test ones. */
  fullRateKeys: string[];
}

/**
 * S9, noisy neighbour (docs/design-record.md#d24): a victim business's GET /appointments/{id}
 * latency and its notices' commit-to-receipt latency, alone and then beside a hostile business
 * that keeps 10 test pings asking for a receiver that never answers, has 32 endpoints (16 live,
 * 16 in its sandbox) at that receiver with notices committed for them all along, and floods
 * failed authentications from the victim's own address. Then the "full legal rate" arm
 * (docs/design-record.md#pool-share-per-business): as many rounds beside the hostile business
 * sending nothing but its largest lists at its full legal rate, 10 live and 10 test keys at 120 a
 * minute each, against the same rounds alone.
 */
export async function noisyNeighbourScenario(bench: Bench): Promise<ScenarioReport> {
  const victim = bench.catalogue.businesses[VICTIM_INDEX];
  const hostileBusiness = bench.catalogue.businesses[HOSTILE_INDEX];
  const receiver = await Receiver.start();
  const tarpit = await Tarpit.start((body) => (body.includes('"type":"webhook.test"') ? 'test ping' : 'notice'));
  const pool = new pg.Pool({ connectionString: bench.runUrl, max: 8 });
  let api: Service | undefined;
  let worker: PinnedProcess | undefined;
  try {
    await prepareEndpoints(pool, receiver.url);
    const hostile = await prepareHostile(bench, pool, hostileBusiness, tarpit.url);
    const victimKeys = await addKeys(pool, victim.id, VICTIM_KEYS, 'live');
    api = await bench.startApi('api (S9)', undefined, undefined, API_SETTINGS);
    worker = await bench.startWorker(WORKER_SETTINGS);
    // Every key has authenticated before, as a partner's keys in use have: over the failed-authentication
    // limit, keys not known to be valid are refused without a lookup (docs/design-record.md#d24).
    await authenticateOnce(api, [...victimKeys, ...hostile.liveKeys, ...hostile.testKeys, ...hostile.fullRateKeys]);
    const victimLoad = new VictimLoad(
      api,
      worker,
      pool,
      receiver,
      victim,
      victimKeys,
      noticeMaker(bench, [victim]),
      bench.options.traceStalls,
    );
    try {
      // Warm-up, not measured.
      await victimLoad.round(bench.options.warmupSeconds);

      const alone: VictimSample[] = [];
      for (let round = 1; round <= bench.options.rounds; round++) {
        alone.push(await victimLoad.round(bench.options.armSeconds));
        bench.log(`  S9 round ${round} alone: ${describe(alone.at(-1)!)}`);
      }

      bench.log(`  S9 hostile starts at ${new Date().toISOString()}`);
      const noise = HostileLoad.start(api, pool, hostile, hostileBusiness, victim);
      await new Promise((done) => setTimeout(done, RAMP_SECONDS * 1000));
      const beside: VictimSample[] = [];
      try {
        for (let round = 1; round <= bench.options.rounds; round++) {
          beside.push(await victimLoad.round(bench.options.armSeconds));
          bench.log(`  S9 round ${round} beside: ${describe(beside.at(-1)!)}`);
        }
      } finally {
        await noise.stopAsking();
        // Ending what the tarpit holds answers the pings still waiting, so the loops end.
        await tarpit.close();
      }
      const hostileResult = await noise.finished();

      // The full legal rate arm: the hostile's noise above has ended, and its tarpit is closed.
      const fullRate = FullRateLoad.start(api, hostile.fullRateKeys);
      await new Promise((done) => setTimeout(done, RAMP_SECONDS * 1000));
      const besideFullRate: VictimSample[] = [];
      try {
        for (let round = 1; round <= bench.options.rounds; round++) {
          besideFullRate.push(await victimLoad.round(bench.options.armSeconds));
          bench.log(`  S9 round ${round} beside the full legal rate: ${describe(besideFullRate.at(-1)!)}`);
        }
      } finally {
        fullRate.stopAsking();
      }
      const fullRateResult = await fullRate.finished();
      bench.log(`  S9 full-rate hostile: ${JSON.stringify(fullRateResult.statuses)} (${Math.round(fullRateResult.perMinute)}/min)`);
      const held = heldCounts(tarpit);
      const deliveries = await hostileDeliveries(pool, hostileBusiness.id, hostile.sandboxId);
      bench.log(
        `  S9 hostile: pings ${JSON.stringify(hostileResult.pings)}; failed-auth flood ${JSON.stringify(hostileResult.flood.statusCounts)} ` +
          `(${Math.round(hostileResult.flood.rps)}/s); tarpit held at most ${JSON.stringify(held)}`,
      );

      const aloneReadP99 = median(alone.map((s) => s.readP99Ms));
      const besideReadP99 = median(beside.map((s) => s.readP99Ms));
      const aloneNoticeP99 = median(alone.map((s) => s.noticeP99Ms));
      const besideNoticeP99 = median(beside.map((s) => s.noticeP99Ms));
      const fullRateReadP99 = median(besideFullRate.map((s) => s.readP99Ms));
      const fullRateNoticeP99 = median(besideFullRate.map((s) => s.noticeP99Ms));
      const sum = (samples: VictimSample[], of: (s: VictimSample) => number) => samples.reduce((total, s) => total + of(s), 0);
      const victimErrors = {
        readFailuresAlone: sum(alone, (s) => s.readFailures),
        readFailuresBeside: sum(beside, (s) => s.readFailures),
        noticesMissingAlone: sum(alone, (s) => s.noticesMissing),
        noticesMissingBeside: sum(beside, (s) => s.noticesMissing),
      };
      const victimErrorsBesideFullRate = {
        readFailures: sum(besideFullRate, (s) => s.readFailures),
        noticesMissing: sum(besideFullRate, (s) => s.noticesMissing),
      };
      const apiSettings = Object.entries(API_SETTINGS)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ');
      const pingsRefused = Object.entries(hostileResult.pings)
        .filter(([kind]) => kind.startsWith('429'))
        .reduce((total, [, count]) => total + count, 0);

      return {
        id: 'S9',
        title: 'Noisy neighbour: a victim business alone and beside a hostile one',
        method:
          `The victim (${victim.slug}) reads GET /appointments/{id} at ${VICTIM_READ_RATE}/s over ${VICTIM_KEYS} keys and commits ${VICTIM_NOTICE_RATE} notices/s to its loopback receiver (open loop, each timed on its own: send → answer, commit → arrival), ` +
          `${bench.options.rounds} rounds of ${bench.options.armSeconds} s alone, then as many beside the hostile (${hostileBusiness.slug}), started ${RAMP_SECONDS} s before: ` +
          `${HOSTILE_PINGS} test pings kept asking (half through its sandbox's test keys; asked again at once after an answer, ${PING_RETRY_PAUSE_MS} ms after a 429) for a tarpit that never answers; ` +
          `${ENDPOINTS_PER_MODE} live and ${ENDPOINTS_PER_MODE} sandbox endpoints at the tarpit, ${HOSTILE_NOTICE_RATE} notice/s committed for them (live and sandbox in turn); ` +
          `${FLOOD_RATE}/s requests with well-formed unknown keys from 127.0.0.1, the victim's own address. Every key of both businesses authenticated once before. ` +
          `Then, that hostile's noise ended, the "full legal rate" arm: ${bench.options.rounds} more rounds beside the hostile sending ${FULL_RATE_PATHS.join(' and ')} in turn ` +
          `through ${FULL_RATE_KEYS_PER_MODE} live and ${FULL_RATE_KEYS_PER_MODE} test keys, each at ${FULL_RATE_PER_KEY_PER_MINUTE} a minute (${FULL_RATE}/s in all, open loop, keys in turn, started ${RAMP_SECONDS} s before), against the same rounds alone. ` +
          `The API (${apiSettings}) and the worker share one core. p99s are the median of the rounds' p99s; the phases are not interleaved, so a drift of the busy machine between them weighs on the ratios.`,
        figures: [
          figure(
            'S9',
            'victim read p99, alone',
            'ms',
            alone.map((s) => s.readP99Ms),
          ),
          figure(
            'S9',
            'victim read p99, beside the hostile',
            'ms',
            beside.map((s) => s.readP99Ms),
          ),
          figure('S9', 'victim read p99, beside / alone', 'ratio', [besideReadP99 / aloneReadP99], { op: '<=', value: 2 }),
          slowestRoundFigure('read', 'beside', beside, aloneReadP99, 'readP99Ms'),
          figure(
            'S9',
            'victim notice commit-to-receipt p99, alone',
            'ms',
            alone.map((s) => s.noticeP99Ms),
          ),
          figure(
            'S9',
            'victim notice commit-to-receipt p99, beside the hostile',
            'ms',
            beside.map((s) => s.noticeP99Ms),
          ),
          figure('S9', 'victim notice p99, beside / alone', 'ratio', [besideNoticeP99 / aloneNoticeP99], { op: '<=', value: 2 }),
          slowestRoundFigure('notice', 'beside', beside, aloneNoticeP99, 'noticeP99Ms'),
          figure(
            'S9',
            'victim errors (reads not 2xx, notices not received)',
            'count',
            [Object.values(victimErrors).reduce((a, b) => a + b, 0)],
            { op: '<=', value: 0 },
          ),
          // The API and the worker share one core: near 1 beside the hostile, the victim waits in a
          // queue for that core in every round, and the ratios above say how fast the machine is,
          // not what the service isolates (docs/performance.md, issue 38's seventh look).
          ...(
            [
              ['alone', alone],
              ['beside the hostile', beside],
              ['beside the full legal rate', besideFullRate],
            ] as const
          ).map(([phase, rounds]) =>
            figure(
              'S9',
              `application core CPU share (API + worker), ${phase}`,
              'share',
              rounds.map((s) => s.apiCpuShare + s.workerCpuShare),
            ),
          ),
          figure('S9', 'hostile test pings answered 429', 'count', [pingsRefused]),
          figure('S9', 'hostile test pings answered 200', 'count', [hostileResult.pings['200'] ?? 0]),
          figure('S9', 'hostile test pings at the tarpit at once, at most', 'requests', [held['test ping'] ?? 0], {
            op: '<=',
            value: PINGS_PER_BUSINESS,
          }),
          figure('S9', 'hostile notices at the tarpit at once, at most', 'requests', [held.notice ?? 0], {
            op: '<=',
            value: DELIVERIES_PER_BUSINESS,
          }),
          figure('S9', 'failed-auth flood answered 401', 'count', [hostileResult.flood.statusCounts['401'] ?? 0]),
          figure('S9', 'failed-auth flood answered 429', 'count', [hostileResult.flood.statusCounts['429'] ?? 0]),
          figure(
            'S9',
            'victim read p99, beside the full legal rate',
            'ms',
            besideFullRate.map((s) => s.readP99Ms),
          ),
          figure('S9', 'victim read p99, beside the full legal rate / alone', 'ratio', [fullRateReadP99 / aloneReadP99], {
            op: '<=',
            value: 2,
          }),
          slowestRoundFigure('read', 'beside the full legal rate', besideFullRate, aloneReadP99, 'readP99Ms'),
          figure(
            'S9',
            'victim notice commit-to-receipt p99, beside the full legal rate',
            'ms',
            besideFullRate.map((s) => s.noticeP99Ms),
          ),
          figure('S9', 'victim notice p99, beside the full legal rate / alone', 'ratio', [fullRateNoticeP99 / aloneNoticeP99], {
            op: '<=',
            value: 2,
          }),
          slowestRoundFigure('notice', 'beside the full legal rate', besideFullRate, aloneNoticeP99, 'noticeP99Ms'),
          figure('S9', 'load generator late, at most in any round', 'ms', [
            Math.max(...[...alone, ...beside, ...besideFullRate].map((s) => s.generatorLoopDelayMaxMs)),
          ]),
          figure(
            'S9',
            'victim errors beside the full legal rate (reads not 2xx, notices not received)',
            'count',
            [victimErrorsBesideFullRate.readFailures + victimErrorsBesideFullRate.noticesMissing],
            { op: '<=', value: 0 },
          ),
          figure('S9', 'full-rate hostile requests a minute', 'requests', [Math.round(fullRateResult.perMinute)]),
          figure('S9', 'full-rate hostile requests answered 2xx', 'count', [fullRateResult.answered2xx]),
          figure('S9', 'full-rate hostile requests answered 503 (waited past its share)', 'count', [fullRateResult.statuses['503'] ?? 0]),
        ],
        rounds: { alone, beside, besideFullRate },
        settings: {
          api: bench.publicSettings(API_SETTINGS),
          worker: bench.publicSettings(WORKER_SETTINGS),
          victim: victim.slug,
          hostile: hostileBusiness.slug,
          victimReadRate: VICTIM_READ_RATE,
          victimNoticeRate: VICTIM_NOTICE_RATE,
          hostilePings: HOSTILE_PINGS,
          pingRetryPauseMs: PING_RETRY_PAUSE_MS,
          hostileEndpoints: { live: hostile.liveEndpointIds.length, sandbox: hostile.sandboxEndpointIds.length },
          hostileNoticeRate: HOSTILE_NOTICE_RATE,
          floodRate: FLOOD_RATE,
          fullRate: { keysPerMode: FULL_RATE_KEYS_PER_MODE, perKeyPerMinute: FULL_RATE_PER_KEY_PER_MINUTE, paths: FULL_RATE_PATHS },
        },
        checks: {
          victimErrors,
          pings: hostileResult.pings,
          hostileNotices: hostileResult.notices,
          flood: { ...hostileResult.flood },
          tarpitMostHeld: held,
          hostileDeliveriesAtEnd: deliveries,
          victimErrorsBesideFullRate,
          fullRate: fullRateResult,
        },
      };
    } finally {
      await victimLoad.close();
    }
  } finally {
    await Promise.all([api?.process.stop(), worker?.stop()]);
    await pool.end();
    await tarpit.close().catch(() => undefined);
    await receiver.close();
  }
}

/**
 * Issue 38's bar: every round beside within 2× of alone, not only their median. The round beside
 * with the highest p99, over the median p99 of the rounds alone.
 */
function slowestRoundFigure(
  what: 'read' | 'notice',
  beside: 'beside' | 'beside the full legal rate',
  samples: VictimSample[],
  aloneP99: number,
  of: 'readP99Ms' | 'noticeP99Ms',
): Figure {
  const slowest = Math.max(...samples.map((s) => s[of]));
  return figure('S9', `victim ${what} p99, slowest round ${beside} / alone`, 'ratio', [slowest / aloneP99], { op: '<=', value: 2 });
}

function describe(s: VictimSample): string {
  const failures = s.readFailures > 0 ? `, ${s.readFailures} failed ${JSON.stringify(s.readStatuses)}` : '';
  const missing = s.noticesMissing > 0 ? `, ${s.noticesMissing} not received` : '';
  return (
    `reads p50 ${s.readP50Ms} ms p99 ${s.readP99Ms} ms (${s.reads}${failures}); ` +
    `notices p50 ${s.noticeP50Ms} ms p99 ${s.noticeP99Ms} ms (${s.notices}${missing}); ` +
    `API CPU ${s.apiCpuShare.toFixed(2)}, worker CPU ${s.workerCpuShare.toFixed(2)}; generator late ${s.generatorLoopDelayMaxMs} ms at most`
  );
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** The victim's reads and notices, started at steady rates and each timed on its own. */
class VictimLoad {
  private readonly agent = new Agent({ connections: 32, pipelining: 1 });

  constructor(
    private readonly api: Service,
    private readonly worker: PinnedProcess,
    private readonly pool: pg.Pool,
    private readonly receiver: Receiver,
    private readonly victim: BusinessData,
    private readonly keys: string[],
    private readonly notices: (count: number) => Notice[],
    private readonly traceStalls: boolean,
  ) {}

  /** One read with the i-th key: its status (0 when it got no answer) and how long it took. */
  private async read(i: number): Promise<{ status: number; ms: number; at: number }> {
    const { appointmentIds } = this.victim;
    const started = performance.now();
    const at = started;
    try {
      const response = await request(`${this.api.baseUrl}/v1/api/appointments/${appointmentIds[i % appointmentIds.length]}`, {
        headers: { authorization: `Bearer ${this.keys[i % this.keys.length]}` },
        dispatcher: this.agent,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      await response.body.dump();
      return { status: response.statusCode, ms: performance.now() - started, at };
    } catch {
      return { status: 0, ms: performance.now() - started, at };
    }
  }

  async round(seconds: number): Promise<VictimSample> {
    const wallStart = performance.now();
    const apiCpu = this.api.process.cpuMs();
    const workerCpu = this.worker.cpuMs();
    const reads: { status: number; ms: number; at: number }[] = [];
    const committed = new Map<string, number>();
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    let next = 0;
    await Promise.all([
      paced(VICTIM_READ_RATE, seconds, async () => void reads.push(await this.read(next++))),
      paced(VICTIM_NOTICE_RATE, seconds, async () => {
        const [notice] = this.notices(1);
        committed.set(notice.body.id, await commitNotices(this.pool, [notice]));
      }),
    ]);
    const wallMs = performance.now() - wallStart;
    loopDelay.disable();
    if (this.traceStalls) {
      // Lined up by time with the API's and the worker's stall traces (--trace-stalls).
      const slowest = [...reads].sort((a, b) => b.ms - a.ms).slice(0, 12);
      const at = (ms: number) => new Date(performance.timeOrigin + ms).toISOString().slice(11, 23);
      console.log(`    slowest reads (start, ms): ${slowest.map((r) => `${at(r.at)} ${Math.round(r.ms)}`).join(', ')}`);
    }
    const apiCpuShare = (this.api.process.cpuMs() - apiCpu) / wallMs;
    const workerCpuShare = (this.worker.cpuMs() - workerCpu) / wallMs;
    await this.arrivalOf([...committed.keys()], Math.max(...committed.values()) + NOTICE_DEADLINE_MS);

    const readStatuses: Record<string, number> = {};
    for (const { status } of reads) readStatuses[status] = (readStatuses[status] ?? 0) + 1;
    const readMs = reads.map((r) => r.ms);
    const noticeMs = [...committed].flatMap(([id, at]) => {
      const arrival = this.receiver.arrivals.get(id);
      return arrival === undefined || arrival - at > NOTICE_DEADLINE_MS ? [] : [arrival - at];
    });
    return {
      reads: reads.length,
      readP50Ms: round1(percentile(readMs, 50)),
      readP99Ms: round1(percentile(readMs, 99)),
      readMaxMs: round1(Math.max(...readMs)),
      readStatuses,
      readFailures: reads.filter((r) => r.status < 200 || r.status > 299).length,
      notices: committed.size,
      noticeP50Ms: round1(percentile(noticeMs, 50)),
      noticeP99Ms: round1(percentile(noticeMs, 99)),
      noticeMaxMs: round1(Math.max(...noticeMs)),
      noticesMissing: committed.size - noticeMs.length,
      apiCpuShare,
      workerCpuShare,
      generatorLoopDelayMaxMs: Math.round(loopDelay.max / 1e6),
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Waits until every notice has arrived, or until `deadline` (preciseNow). */
  private async arrivalOf(ids: string[], deadline: number): Promise<void> {
    while (ids.some((id) => !this.receiver.arrivals.has(id)) && preciseNow() < deadline) {
      await new Promise((done) => setTimeout(done, 20));
    }
  }
}

interface HostileResult {
  /** Answers to the test pings: `200`, `429 <reason>`, another status, or `no answer`. */
  pings: Record<string, number>;
  notices: { live: number; sandbox: number };
  flood: { statusCounts: Record<string, number>; rps: number; errors: number };
}

/** What the hostile does beside the victim, until told to stop. */
class HostileLoad {
  private asking = true;
  private readonly pings: Record<string, number> = {};
  private readonly noticeCounts = { live: 0, sandbox: 0 };
  private readonly pingAgent = new Agent({ connections: HOSTILE_PINGS, pipelining: 1 });
  private pingLoops: Promise<void>[] = [];
  private noticeLoop: Promise<void> = Promise.resolve();
  private flood!: ReturnType<typeof autocannon>;

  private constructor(
    private readonly api: Service,
    private readonly pool: pg.Pool,
    private readonly hostile: Hostile,
    private readonly business: BusinessData,
  ) {}

  static start(api: Service, pool: pg.Pool, hostile: Hostile, business: BusinessData, victim: BusinessData): HostileLoad {
    const load = new HostileLoad(api, pool, hostile, business);
    load.pingLoops = Array.from({ length: HOSTILE_PINGS }, (_, i) => load.pingLoop(i));
    load.noticeLoop = load.commitNotices();
    load.flood = failedAuthFlood(api, victim);
    return load;
  }

  /** Stops asking: no new ping, notice or flood request (the pings under way go on). */
  async stopAsking(): Promise<void> {
    this.asking = false;
    this.flood.stop();
    await this.noticeLoop;
  }

  async finished(): Promise<HostileResult> {
    await Promise.all(this.pingLoops);
    await this.pingAgent.close();
    const flood: AutocannonResult = await this.flood;
    const statusCounts = Object.fromEntries(Object.entries(flood.statusCodeStats).map(([code, { count }]) => [code, count]));
    return {
      pings: this.pings,
      notices: this.noticeCounts,
      flood: { statusCounts, rps: flood.requests.total / flood.duration, errors: flood.errors },
    };
  }

  /** Loop i: pings one endpoint of its mode, with its keys in turn; the first half are the sandbox's. */
  private async pingLoop(i: number): Promise<void> {
    const sandbox = i < HOSTILE_PINGS / 2;
    const slot = sandbox ? i : i - HOSTILE_PINGS / 2;
    const keys = (sandbox ? this.hostile.testKeys : this.hostile.liveKeys).slice(
      slot * KEYS_PER_PING_LOOP,
      (slot + 1) * KEYS_PER_PING_LOOP,
    );
    const endpoints = sandbox ? this.hostile.sandboxEndpointIds : this.hostile.liveEndpointIds;
    const endpointId = endpoints[slot % endpoints.length];
    for (let n = 0; this.asking; n++) {
      const answer = await this.ping(endpointId, keys[n % keys.length]);
      this.pings[answer] = (this.pings[answer] ?? 0) + 1;
      if (answer !== '200') await new Promise((done) => setTimeout(done, PING_RETRY_PAUSE_MS));
    }
  }

  private async ping(endpointId: string, key: string): Promise<string> {
    try {
      const response = await request(`${this.api.baseUrl}/v1/api/webhook-endpoints/${endpointId}/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() },
        dispatcher: this.pingAgent,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      const body = await response.body.text();
      if (response.statusCode !== 429) return String(response.statusCode);
      return `429 ${refusalOf(body)}`;
    } catch {
      return 'no answer';
    }
  }

  private async commitNotices(): Promise<void> {
    const live = noticeMakerFor(this.business.id, this.business);
    const sandbox = noticeMakerFor(this.hostile.sandboxId, this.business);
    for (let n = 0; this.asking; n++) {
      const inSandbox = n % 2 === 1;
      await commitNotices(this.pool, [(inSandbox ? sandbox : live)()]);
      this.noticeCounts[inSandbox ? 'sandbox' : 'live'] += 1;
      await new Promise((done) => setTimeout(done, 1000 / HOSTILE_NOTICE_RATE));
    }
  }
}

interface FullRateResult {
  /** Answers by status (`no answer` when none came). */
  statuses: Record<string, number>;
  answered2xx: number;
  /** Requests sent a minute, over the time the load ran. */
  perMinute: number;
}

/**
 * The hostile at its full legal rate (docs/design-record.md#pool-share-per-business): its keys in
 * turn, each at its own limit, open loop (a slow answer delays no later send), until told to stop.
 */
class FullRateLoad {
  private asking = true;
  private readonly statuses: Record<string, number> = {};
  private readonly agent = new Agent({ connections: 64, pipelining: 1 });
  private loop: Promise<void> = Promise.resolve();
  private sent = 0;
  private readonly startedAt = performance.now();
  private stoppedAt = 0;

  private constructor(
    private readonly api: Service,
    private readonly keys: string[],
  ) {}

  static start(api: Service, keys: string[]): FullRateLoad {
    const load = new FullRateLoad(api, keys);
    load.loop = load.send();
    return load;
  }

  stopAsking(): void {
    this.asking = false;
  }

  async finished(): Promise<FullRateResult> {
    await this.loop;
    await this.agent.close();
    const answered2xx = Object.entries(this.statuses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .reduce((total, [, count]) => total + count, 0);
    return { statuses: this.statuses, answered2xx, perMinute: (this.sent * 60_000) / (this.stoppedAt - this.startedAt) };
  }

  private async send(): Promise<void> {
    const requests: Promise<void>[] = [];
    for (let i = 0; this.asking; i++) {
      const wait = this.startedAt + (i * 1000) / FULL_RATE - performance.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      if (!this.asking) break;
      // Key i in turn: each key's requests are FULL_RATE_PER_KEY_PER_MINUTE a minute apart on average.
      const key = this.keys[i % this.keys.length];
      const path = FULL_RATE_PATHS[Math.floor(i / this.keys.length) % FULL_RATE_PATHS.length];
      requests.push(this.one(path, key));
      this.sent += 1;
    }
    this.stoppedAt = performance.now();
    await Promise.all(requests);
  }

  private async one(path: string, key: string): Promise<void> {
    let answer: string;
    try {
      const response = await request(`${this.api.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${key}` },
        dispatcher: this.agent,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      await response.body.dump();
      answer = String(response.statusCode);
    } catch {
      answer = 'no answer';
    }
    this.statuses[answer] = (this.statuses[answer] ?? 0) + 1;
  }
}

/** Which limit refused a ping, from the problem's detail (docs/error-codes.md). */
function refusalOf(body: string): string {
  const detail = (JSON.parse(body) as { detail?: string }).detail ?? '';
  if (/test pings of a business/.test(detail)) return 'test pings of the business';
  if (/test pings are under way on this server/.test(detail)) return 'test pings of the process';
  if (/for this key/.test(detail)) return 'requests of the key';
  if (/failed authentications/.test(detail)) return 'failed authentications of the address';
  return detail.slice(0, 60);
}

/** Notices of one business row (the live one or its sandbox), which present the live business's slug. */
function noticeMakerFor(businessId: string, live: BusinessData): () => Notice {
  return () => ({
    businessId,
    body: buildNoticeBody({
      type: 'appointment.created',
      businessSlug: live.slug,
      subjectId: live.appointmentIds[0],
      occurredAt: new Date(),
    }),
  });
}

/** Requests with well-formed keys that do not exist, from 127.0.0.1 like the victim's, at FLOOD_RATE. */
function failedAuthFlood(api: Service, victim: BusinessData): ReturnType<typeof autocannon> {
  const path = `/v1/api/appointments/${victim.appointmentIds[0]}`;
  return autocannon({
    url: api.baseUrl,
    connections: FLOOD_CONNECTIONS,
    overallRate: FLOOD_RATE,
    pipelining: 1,
    // Ended by stop(); the duration only bounds a run whose stop never came.
    duration: 3600,
    timeout: 30,
    requests: Array.from({ length: FLOOD_KEYS }, () => ({
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${generateApiKey()}` },
    })),
  });
}

/**
 * The hostile's sandbox (made with the admin command, as an operator would), its 32 endpoints at
 * the tarpit (its catalogue endpoint and 15 more live, 16 in the sandbox; secrets sealed as the
 * service stores them) and the keys of its ping loops (live keys, and test keys of the sandbox).
 */
async function prepareHostile(bench: Bench, pool: pg.Pool, business: BusinessData, tarpitUrl: string): Promise<Hostile> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['dist/apps/admin/src/main.js', 'sandbox', 'create', '--business', business.slug],
    { cwd: REPO_ROOT, env: bench.appEnv() },
  );
  const sandboxId = (JSON.parse(stdout) as { sandbox: { id: string } }).sandbox.id;
  const { rows: existing } = await pool.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE business_id = $1 ORDER BY id', [
    business.id,
  ]);
  await pool.query('UPDATE webhook_endpoints SET url = $1 WHERE business_id = $2', [tarpitUrl, business.id]);
  const added = await addEndpoints(pool, business.id, ENDPOINTS_PER_MODE - existing.length, tarpitUrl);
  const sandboxEndpointIds = await addEndpoints(pool, sandboxId, ENDPOINTS_PER_MODE, tarpitUrl);
  const keysEach = (HOSTILE_PINGS / 2) * KEYS_PER_PING_LOOP;
  return {
    sandboxId,
    liveEndpointIds: [...existing.map((row) => row.id), ...added],
    sandboxEndpointIds,
    liveKeys: await addKeys(pool, business.id, keysEach, 'live'),
    testKeys: await addKeys(pool, sandboxId, keysEach, 'test', business.id),
    fullRateKeys: [
      ...(await addKeys(pool, business.id, FULL_RATE_KEYS_PER_MODE, 'live')),
      ...(await addKeys(pool, sandboxId, FULL_RATE_KEYS_PER_MODE, 'test', business.id)),
    ],
  };
}

async function addEndpoints(pool: pg.Pool, businessId: string, count: number, url: string): Promise<string[]> {
  const cipher = new SecretsCipher({ SECRETS_KEY: BENCH_SECRETS.SECRETS_KEY } as AppConfig);
  const ids = Array.from({ length: count }, () => newId());
  await pool.query(
    `INSERT INTO webhook_endpoints (id, business_id, url, events, secret, enabled, api_version)
     SELECT id, $2, $3, ARRAY['appointment.created'], secret, true, $5 FROM unnest($1::uuid[], $4::text[]) AS e(id, secret)`,
    [ids, businessId, url, ids.map((id) => cipher.seal(`whsec_${randomBytes(32).toString('base64')}`, id)), CURRENT_API_VERSION],
  );
  return ids;
}

/**
 * Keys made as the catalogue's are (the project's key code, the bench API's pepper), with every
 * scope, of the owner of `memberOf` (a sandbox's keys are its live business's members').
 */
async function addKeys(pool: pg.Pool, businessId: string, count: number, mode: ApiKeyMode, memberOf = businessId): Promise<string[]> {
  const keys = Array.from({ length: count }, () => generateApiKey(mode));
  await pool.query(
    `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, api_version)
     SELECT k.id, $2, (SELECT m.id FROM members m WHERE m.business_id = $3 AND m.role = 'OWNER' LIMIT 1), 'Bench S9 key', k.prefix, k.key_hash, $4::text[], $7
       FROM unnest($1::uuid[], $5::text[], $6::text[]) AS k(id, prefix, key_hash)`,
    [
      keys.map(() => newId()),
      businessId,
      memberOf,
      SCOPES,
      keys.map((key) => apiKeyDisplayPrefix(key)),
      keys.map((key) => hashApiKey(BENCH_SECRETS.API_KEY_PEPPER, key)),
      CURRENT_API_VERSION,
    ],
  );
  return keys;
}

/** GET /me with each key once; throws unless every one answers 200. */
async function authenticateOnce(api: Service, keys: string[]): Promise<void> {
  const agent = new Agent({ connections: 10, pipelining: 1 });
  try {
    for (let i = 0; i < keys.length; i += 10) {
      await Promise.all(
        keys.slice(i, i + 10).map(async (key) => {
          const response = await request(`${api.baseUrl}/v1/api/me`, { headers: { authorization: `Bearer ${key}` }, dispatcher: agent });
          const body = await response.body.text();
          if (response.statusCode !== 200)
            throw new Error(`GET /me with a ${key.slice(0, 8)} key answered ${response.statusCode}: ${body}`);
        }),
      );
    }
  } finally {
    await agent.close();
  }
}

/** Requests the tarpit held at most at once, of each kind. */
function heldCounts(tarpit: Tarpit): Record<string, number> {
  const held: Record<string, number> = { all: tarpit.mostHeld };
  for (const [kind, count] of tarpit.kinds) held[kind] = count.mostHeld;
  return held;
}

/** The hostile's notice deliveries by status once it stopped: most wait their turn behind its slow receivers. */
async function hostileDeliveries(pool: pg.Pool, liveId: string, sandboxId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; count: string }>(
    'SELECT status, count(*) AS count FROM notice_deliveries WHERE business_id = ANY($1::uuid[]) GROUP BY status ORDER BY status',
    [[liveId, sandboxId]],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}
