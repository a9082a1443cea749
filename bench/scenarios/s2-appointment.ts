import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { loadArm, type Requests, type RequestSpec } from '../harness/load.js';
import { profileOurs } from './profile-ours.js';
import { rawApiEnv } from './raw-api-env.js';

const RSS_TARGET_MB = 250;
/**
 * Start flags measured beside the API as it is started today, because its peak RSS comes from
 * V8 sizing the heap for a machine with memory to spare (on Node 24 the young generation alone
 * grows to 128 MB, and the old generation far past the ~65 MB that stays live after a full
 * collection), not from what the API keeps. These size the heap as for a container of about
 * 256 MB; the figures show what they change, in memory and CPU, so the start commands can adopt
 * them on evidence. (A 128 MB old generation made the collector thrash in trials.)
 */
const CANDIDATE_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=192'];
const CANDIDATE = `ours ${CANDIDATE_FLAGS.join(' ')}`;

/**
 * S2, GET /appointments/{id}: ours against raw node:http + pg doing the same work with the same
 * SQL and Lua (key lookup, rate-limit script, appointment query). Also the API's peak RSS under
 * this load, from a process started for this scenario, and the same with CANDIDATE_FLAGS.
 */
export async function appointmentScenario(bench: Bench): Promise<ScenarioReport> {
  const raw = await bench.startServer('raw pg', 'raw-api.js', '/health', rawApiEnv(bench));
  const api = await bench.startApi('api (S2)');
  const candidate = await bench.startApi(`api (S2, ${CANDIDATE_FLAGS.join(' ')})`, undefined, CANDIDATE_FLAGS);
  try {
    const samples = await bench.interleave('S2', [
      loadArm('raw pg', raw, bench.options.connections, appointmentReads(bench)),
      loadArm('ours', api, bench.options.connections, appointmentReads(bench)),
      loadArm(CANDIDATE, candidate, bench.options.connections, appointmentReads(bench)),
    ]);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const report: ScenarioReport = {
      id: 'S2',
      title: 'GET /appointments/{id}: ours against raw node:http + pg',
      method:
        'Same key lookup (HMAC + SELECT join), same rate-limit Lua via ioredis, same appointment query; keys rotate over 5,000, each reading appointments of its own business. A third arm runs the API with candidate start flags.',
      figures: [
        figure('S2', 'ours / raw pg (throughput)', 'ratio', ratios(rps('ours'), rps('raw pg')), { op: '>=', value: 0.35 }),
        figure('S2', 'ours throughput', 'req/s', rps('ours')),
        figure('S2', 'raw pg throughput', 'req/s', rps('raw pg')),
        figure('S2', 'ours CPU per request', 'µs', samples.ours.map((s) => s.cpuUsPerRequest)),
        figure('S2', 'raw pg CPU per request', 'µs', samples['raw pg'].map((s) => s.cpuUsPerRequest)),
        figure('S2', 'ours p99 latency', 'ms', samples.ours.map((s) => s.latencyMs.p99)),
        figure('S2', 'ours admitted by the rate limiter', 'share', samples.ours.map((s) => s.admitted), { op: '>=', value: 0.999 }),
        figure('S2', 'API peak RSS under S2 load (VmHWM)', 'MB', [api.process.peakRssMb()], { op: '<=', value: RSS_TARGET_MB }),
        figure('S2', `${CANDIDATE}: peak RSS`, 'MB', [candidate.process.peakRssMb()]),
        figure('S2', `${CANDIDATE} / ours (throughput)`, 'ratio', ratios(rps(CANDIDATE), rps('ours'))),
        figure('S2', `${CANDIDATE}: CPU per request`, 'µs', samples[CANDIDATE].map((s) => s.cpuUsPerRequest)),
      ],
      rounds: samples,
      settings: { api: bench.publicSettings(), candidateFlags: CANDIDATE_FLAGS },
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
