import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure } from '../harness/figures.js';
import { burst } from '../harness/load.js';

const FLOOD = 1000;

/** S5: 1,000 concurrent requests with one key (not used before): at most 120 may be admitted. */
export async function floodScenario(bench: Bench): Promise<ScenarioReport> {
  const api = await bench.startApi('api (S5)');
  try {
    const { key } = bench.catalogue.floodKey;
    const specs = Array.from({ length: FLOOD }, () => ({
      method: 'GET' as const,
      path: '/v1/api/me',
      headers: { authorization: `Bearer ${key}` },
    }));
    const result = await burst(api.baseUrl, specs);
    bench.log(`  S5: ${JSON.stringify(result.statusCounts)} in ${result.seconds.toFixed(1)} s`);
    return {
      id: 'S5',
      title: 'Rate limiter flood: 1,000 concurrent requests of one key',
      method: '1,000 GET /me at once, each on its own connection, with a key no other scenario uses.',
      figures: [
        figure('S5', `admitted of ${FLOOD} concurrent requests`, 'count', [result.statusCounts['200'] ?? 0], { op: '<=', value: 120 }),
        figure('S5', 'refused with 429', 'count', [result.statusCounts['429'] ?? 0]),
      ],
      rounds: {},
      checks: { ...result },
    };
  } finally {
    await api.process.stop();
  }
}
