import type { Bench, ScenarioReport, Service } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { loadArm, type Requests } from '../harness/load.js';
import { profileOurs } from './profile-ours.js';

/**
 * S1, GET /me three ways: raw node:http (a constant), a bare Nest app (a constant through Nest
 * and Express) and ours (key lookup, Redis rate limit, guards, filters, one business query). The
 * ratios say what the framework costs and what our request path adds on top of it.
 */
export async function meScenario(bench: Bench, hello: Service): Promise<ScenarioReport> {
  const nest = await bench.startServer('bare Nest', 'bare-nest.js', '/v1/api/me');
  const api = await bench.startApi('api (S1)');
  try {
    const { connections } = bench.options;
    const requests = meRequests(bench);
    const samples = await bench.interleave('S1', [
      loadArm('raw node:http', hello, connections, requests),
      loadArm('bare Nest', nest, connections, requests),
      loadArm('ours', api, connections, requests),
    ]);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const cpu = (arm: string) => samples[arm].map((s) => s.cpuUsPerRequest);
    const report: ScenarioReport = {
      id: 'S1',
      title: 'GET /me: raw node:http, bare Nest, our full stack',
      method: 'Three servers on the app core, loaded in turn each round; keys rotate over 5,000.',
      figures: [
        figure('S1', 'bare Nest / raw node:http (throughput)', 'ratio', ratios(rps('bare Nest'), rps('raw node:http'))),
        figure('S1', 'ours / raw node:http (throughput)', 'ratio', ratios(rps('ours'), rps('raw node:http'))),
        figure('S1', 'ours / bare Nest (throughput)', 'ratio', ratios(rps('ours'), rps('bare Nest'))),
        figure('S1', 'ours throughput', 'req/s', rps('ours')),
        figure('S1', 'bare Nest CPU per request', 'µs', cpu('bare Nest')),
        figure('S1', 'ours CPU per request', 'µs', cpu('ours')),
        figure(
          'S1',
          'ours admitted by the rate limiter',
          'share',
          samples.ours.map((s) => s.admitted),
          { op: '>=', value: 0.999 },
        ),
      ],
      rounds: samples,
      settings: { api: bench.publicSettings() },
    };
    if (bench.wantsProfile(report)) report.profile = await profileOurs(bench, 'S1', requests);
    return report;
  } finally {
    await Promise.all([nest.process.stop(), api.process.stop()]);
  }
}

/** GET /me once with every throughput key (the baselines ignore the key). */
export function meRequests(bench: Bench): Requests {
  return {
    fixed: bench.catalogue.keys.map(({ key }) => ({ method: 'GET', path: '/v1/api/me', headers: { authorization: `Bearer ${key}` } })),
  };
}
