import { API_NODE_FLAGS, type Bench, type ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { loadArm, type Requests, type RequestSpec } from '../harness/load.js';
import { profileOurs } from './profile-ours.js';
import { rawApiEnv } from './raw-api-env.js';

const RSS_TARGET_MB = 250;
/**
 * The API beside itself started with Node's default heap sizing, because its peak RSS comes from V8
 * sizing the heap for a machine with memory to spare (on Node 24 the young generation alone grows
 * to 128 MB, and the old generation far past the ~65 MB that stays live after a full collection),
 * not from what the API keeps. `npm run start:api` sizes it as for a ~256 MB container
 * (API_NODE_FLAGS); this arm shows what that costs and saves, in memory and CPU.
 */
const DEFAULT_HEAP = 'ours with Node default heap';

/**
 * S2, GET /appointments/{id}: ours against raw node:http + pg doing the same work with the same
 * SQL and Lua (key lookup, rate-limit script, appointment query). Also the API's peak RSS under
 * this load, from a process started for this scenario, and the same with Node's default heap.
 */
export async function appointmentScenario(bench: Bench): Promise<ScenarioReport> {
  const raw = await bench.startServer('raw pg', 'raw-api.js', '/health', rawApiEnv(bench));
  const api = await bench.startApi('api (S2)');
  const candidate = await bench.startApi('api (S2, default heap)', undefined, []);
  try {
    const samples = await bench.interleave('S2', [
      loadArm('raw pg', raw, bench.options.connections, appointmentReads(bench)),
      loadArm('ours', api, bench.options.connections, appointmentReads(bench)),
      loadArm(DEFAULT_HEAP, candidate, bench.options.connections, appointmentReads(bench)),
    ]);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const report: ScenarioReport = {
      id: 'S2',
      title: 'GET /appointments/{id}: ours against raw node:http + pg',
      method:
        'The same statements, imported from the repositories of the API (the key lookup with its HMAC and the last use of the key, the appointment read), and the same rate-limit Lua via ioredis; keys rotate over 5,000, each reading appointments of its own business. Ours runs with the node flags of npm run start:api; a third arm runs it with the default heap sizing of Node.',
      figures: [
        figure('S2', 'ours / raw pg (throughput)', 'ratio', ratios(rps('ours'), rps('raw pg')), { op: '>=', value: 0.6 }),
        figure('S2', 'ours throughput', 'req/s', rps('ours')),
        figure('S2', 'raw pg throughput', 'req/s', rps('raw pg')),
        figure(
          'S2',
          'ours CPU per request',
          'µs',
          samples.ours.map((s) => s.cpuUsPerRequest),
        ),
        figure(
          'S2',
          'raw pg CPU per request',
          'µs',
          samples['raw pg'].map((s) => s.cpuUsPerRequest),
        ),
        figure(
          'S2',
          'ours p99 latency',
          'ms',
          samples.ours.map((s) => s.latencyMs.p99),
        ),
        figure(
          'S2',
          'ours admitted by the rate limiter',
          'share',
          samples.ours.map((s) => s.admitted),
          { op: '>=', value: 0.999 },
        ),
        figure('S2', 'API peak RSS under S2 load (VmHWM)', 'MB', [api.process.peakRssMb()], { op: '<=', value: RSS_TARGET_MB }),
        figure('S2', `${DEFAULT_HEAP}: peak RSS`, 'MB', [candidate.process.peakRssMb()]),
        figure('S2', `${DEFAULT_HEAP} / ours (throughput)`, 'ratio', ratios(rps(DEFAULT_HEAP), rps('ours'))),
        figure(
          'S2',
          `${DEFAULT_HEAP}: CPU per request`,
          'µs',
          samples[DEFAULT_HEAP].map((s) => s.cpuUsPerRequest),
        ),
      ],
      rounds: samples,
      settings: { api: bench.publicSettings(), apiNodeFlags: API_NODE_FLAGS },
    };
    if (bench.wantsProfile(report)) report.profile = await profileOurs(bench, 'S2', appointmentReads(bench));
    return report;
  } finally {
    await Promise.all([raw.process.stop(), api.process.stop(), candidate.process.stop()]);
  }
}

/** Every key once, each reading one of its own business's appointments. */
function appointmentReads(bench: Bench): Requests {
  const businesses = new Map(bench.catalogue.businesses.map((b) => [b.id, b]));
  const specs = bench.catalogue.keys.map((key, i): RequestSpec => {
    const { appointmentIds } = businesses.get(key.businessId)!;
    return {
      method: 'GET',
      path: `/v1/api/appointments/${appointmentIds[i % appointmentIds.length]}`,
      headers: { authorization: `Bearer ${key.key}` },
    };
  });
  return { fixed: specs };
}
