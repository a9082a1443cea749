import pg from 'pg';
import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure } from '../harness/figures.js';
import { Receiver } from '../harness/receiver.js';
import { Tarpit } from '../harness/tarpit.js';
import { commitNotices, latencyRun, noticeMaker, prepareEndpoints, WORKER_SETTINGS, type LatencyResult } from './s6-notices.js';

/** The worker's settings: WEBHOOK_ENDPOINT_CONCURRENCY at its default (4), reported with the figures. */
const ENDPOINT_CAP = 4;
/** Notices to the tarpit, and to the healthy endpoints, per run. */
const NOTICES = 200;
/** The healthy notices are committed one per transaction at this rate (open loop). */
const HEALTHY_RATE = 50;

/**
 * S8, fair delivery (docs/design-record.md#d17): the commit-to-receipt latency of healthy
 * endpoints at 50 notices a second, first alone, then while one business's endpoint (a tarpit
 * that never answers) has 200 notices of its own waiting. Beside S6: same worker, same receiver.
 */
export async function fairDeliveryScenario(bench: Bench): Promise<ScenarioReport> {
  const receiver = await Receiver.start();
  const tarpit = await Tarpit.start();
  const pool = new pg.Pool({ connectionString: bench.runUrl, max: 8 });
  const [slow, ...healthy] = bench.catalogue.businesses;
  await prepareEndpoints(pool, receiver.url);
  await pool.query('UPDATE webhook_endpoints SET url = $1 WHERE business_id = $2', [tarpit.url, slow.id]);
  const worker = await bench.startWorker(WORKER_SETTINGS);
  try {
    const healthyNotices = noticeMaker(bench, healthy);
    const tarpitNotices = noticeMaker(bench, [slow]);
    const seconds = NOTICES / HEALTHY_RATE;
    const runLatency = () => latencyRun(seconds, pool, receiver, healthyNotices, HEALTHY_RATE);

    // Warm-up, not measured: the worker's first deliveries pay for its pools and compiled code.
    await latencyRun(2, pool, receiver, healthyNotices, HEALTHY_RATE);
    const alone: LatencyResult = await runLatency();
    bench.log(`  S8 healthy alone at ${alone.rate}/s: p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms, max ${alone.maxMs} ms`);
    await commitNotices(pool, tarpitNotices(NOTICES));
    const beside: LatencyResult = await runLatency();
    const held = { holdingAtEnd: tarpit.holding, mostHeld: tarpit.mostHeld, received: tarpit.received };
    bench.log(
      `  S8 healthy beside a tarpit: p50 ${beside.p50Ms} ms, p99 ${beside.p99Ms} ms, max ${beside.maxMs} ms; tarpit held at most ${held.mostHeld} (${held.holdingAtEnd} at the end)`,
    );
    return {
      id: 'S8',
      title: 'Fair delivery: healthy endpoints beside a tarpit',
      method: `${NOTICES} healthy notices (99 businesses) committed one per transaction at ${HEALTHY_RATE}/s, commit → arrival at a loopback receiver; after a 2-second warm-up, first alone, then after ${NOTICES} notices were committed for one business whose endpoint holds every request and never answers. The worker runs 20 deliveries at once; WEBHOOK_ENDPOINT_CONCURRENCY is ${ENDPOINT_CAP}.`,
      figures: [
        figure('S8', 'healthy commit-to-receipt p50, alone', 'ms', [alone.p50Ms]),
        figure('S8', 'healthy commit-to-receipt p99, alone', 'ms', [alone.p99Ms]),
        figure('S8', 'healthy commit-to-receipt p50, beside the tarpit', 'ms', [beside.p50Ms], { op: '<=', value: 50 }),
        figure('S8', 'healthy commit-to-receipt p99, beside the tarpit', 'ms', [beside.p99Ms], { op: '<=', value: 250 }),
        figure('S8', 'tarpit requests in flight at most', 'requests', [held.mostHeld], { op: '<=', value: ENDPOINT_CAP }),
      ],
      rounds: { alone: [alone], beside: [beside] },
      settings: { worker: bench.publicSettings(WORKER_SETTINGS), endpointConcurrency: ENDPOINT_CAP, healthyRate: HEALTHY_RATE },
      checks: { tarpit: held },
    };
  } finally {
    await worker.stop();
    await pool.end();
    await tarpit.close();
    await receiver.close();
  }
}
