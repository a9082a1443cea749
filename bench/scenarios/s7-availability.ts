import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { loadArm, type Requests } from '../harness/load.js';
import { profileOurs } from './profile-ours.js';

const DAY_MS = 86_400_000;
const LIST_QUERY = `/v1/api/appointments?from=${encodeURIComponent('2025-01-01T00:00:00Z')}&to=${encodeURIComponent('2030-01-01T00:00:00Z')}&limit=50`;

/**
 * The Monday at least four weeks after today, at midnight UTC: a future week that the data
 * (bench/data/generate.sql: bookings to May 2030) has booked solid, whatever the day of the run.
 */
function firstMondayAfterFourWeeks(now = new Date()): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + 28 * DAY_MS);
  return new Date(day.getTime() + ((8 - day.getUTCDay()) % 7) * DAY_MS);
}

/**
 * S7, GET /availability of the availability business (200,000 appointments on 20 staff with a
 * salon's hours, weekly blocks and bookings): 7 and 31 days of "any staff" free times of a
 * 30-minute service, beside S3's page 1 (50 appointments of the 200,000-appointment business)
 * loaded in the same rounds. Target: the 7-day answer at half page 1's throughput or better.
 */
export async function availabilityScenario(bench: Bench): Promise<ScenarioReport> {
  const { availability, bigKeys } = bench.catalogue;
  const from = firstMondayAfterFourWeeks();
  const query = (days: number) =>
    `/v1/api/availability?serviceId=${availability.serviceId}&from=${encodeURIComponent(from.toISOString())}` +
    `&to=${encodeURIComponent(new Date(from.getTime() + days * DAY_MS).toISOString())}`;
  const api = await bench.startApi('api (S7)');
  try {
    const checks = {
      week: await checkAvailability(api.baseUrl, query(7), availability.keys[0].key),
      month: await checkAvailability(api.baseUrl, query(31), availability.keys[1].key),
    };
    // A week of a 20-member salon with gaps in every day offers starts, each to several members.
    if (checks.week.status !== 200 || checks.week.starts < 20 || checks.month.status !== 200 || checks.month.starts < checks.week.starts) {
      throw new Error(`S7: the answers are not what the data should give: ${JSON.stringify(checks)}`);
    }
    const get = (path: string, keys: { key: string }[]): Requests => ({
      fixed: keys.map(({ key }) => ({ method: 'GET', path, headers: { authorization: `Bearer ${key}` } })),
    });
    // Each arm gets its own keys: 120 requests per key a minute is the API's limit, not the figure.
    const half = availability.keys.length / 2;
    const samples = await bench.interleave('S7', [
      loadArm('list page 1', api, bench.options.connections, get(LIST_QUERY, bigKeys)),
      loadArm('7 days', api, bench.options.connections, get(query(7), availability.keys.slice(0, half))),
      loadArm('31 days', api, bench.options.connections, get(query(31), availability.keys.slice(half))),
    ]);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const p50 = (arm: string) => samples[arm].map((s) => s.latencyMs.p50);
    const report: ScenarioReport = {
      id: 'S7',
      title: 'GET /availability, any staff, 30-minute service: 7 and 31 days, beside GET /appointments page 1',
      method:
        'One API; list page 1 (limit 50, the 200,000-appointment business), 7 days and 31 days of free times of the availability ' +
        'business (20 staff, 200,000 appointments) loaded in turn each round, each arm with its own keys.',
      figures: [
        figure('S7', '7 days / list page 1 (throughput)', 'ratio', ratios(rps('7 days'), rps('list page 1')), { op: '>=', value: 0.5 }),
        figure('S7', '7 days throughput', 'req/s', rps('7 days')),
        figure('S7', '7 days p50 latency', 'ms', p50('7 days')),
        figure('S7', '31 days throughput', 'req/s', rps('31 days')),
        figure('S7', '31 days p50 latency', 'ms', p50('31 days')),
        figure('S7', 'list page 1 throughput', 'req/s', rps('list page 1')),
        figure(
          'S7',
          'ours CPU per request (7 days)',
          'µs',
          samples['7 days'].map((s) => s.cpuUsPerRequest),
        ),
      ],
      rounds: samples,
      checks,
    };
    if (bench.wantsProfile(report)) report.profile = await profileOurs(bench, 'S7', get(query(7), availability.keys.slice(0, half)));
    return report;
  } finally {
    await api.process.stop();
  }
}

async function checkAvailability(baseUrl: string, path: string, key: string): Promise<{ status: number; starts: number; members: number }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { data?: { staffIds: string[] }[] };
  const members = new Set((body.data ?? []).flatMap((start) => start.staffIds));
  return { status: response.status, starts: body.data?.length ?? 0, members: members.size };
}
