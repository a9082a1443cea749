import pg from 'pg';
import { CursorCodec, type CursorScope } from '#core/pagination/cursor-codec.js';
import { parseDateTime } from '#core/pagination/epoch-micros.js';
import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { loadArm, type Requests } from '../harness/load.js';
import { BENCH_SECRETS } from '../settings.js';
import { profileOurs } from './profile-ours.js';

const FROM = '2025-01-01T00:00:00Z';
const TO = '2030-01-01T00:00:00Z';
const LIMIT = 50;
const DEEP_PAGE = 4000;

/**
 * S3, GET /appointments of the business with 200,000: page 1 against page 4,000 (limit 50, the
 * last page). Keyset pagination should make both cost the same. The deep page's cursor is made
 * with the app's own CursorCodec and the bench CURSOR_SECRET, for the row before the page.
 */
export async function listScenario(bench: Bench): Promise<ScenarioReport> {
  const { big, bigKeys } = bench.catalogue;
  const query = `/v1/api/appointments?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&limit=${LIMIT}`;
  const deepQuery = `${query}&cursor=${await deepCursor(bench.runUrl, big.id)}`;
  const api = await bench.startApi('api (S3)');
  try {
    const checks = {
      page1: await checkPage(api.baseUrl, query, bigKeys[0].key),
      [`page${DEEP_PAGE}`]: await checkPage(api.baseUrl, deepQuery, bigKeys[1].key),
    };
    if (checks.page1.items !== LIMIT || checks[`page${DEEP_PAGE}`].items !== LIMIT || checks[`page${DEEP_PAGE}`].hasNext) {
      throw new Error(`S3: the pages are not what the data should give: ${JSON.stringify(checks)}`);
    }
    const get = (path: string): Requests => ({
      fixed: bigKeys.map(({ key }) => ({ method: 'GET', path, headers: { authorization: `Bearer ${key}` } })),
    });
    const samples = await bench.interleave('S3', [
      loadArm('page 1', api, bench.options.connections, get(query)),
      loadArm(`page ${DEEP_PAGE}`, api, bench.options.connections, get(deepQuery)),
    ]);
    const p50 = (arm: string) => samples[arm].map((s) => s.latencyMs.p50);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const deep = `page ${DEEP_PAGE}`;
    const report: ScenarioReport = {
      id: 'S3',
      title: `GET /appointments: page 1 against page ${DEEP_PAGE} (limit ${LIMIT}) of 200,000`,
      method:
        "One API; the two pages loaded in turn each round with the big business's 2,000 keys. Latency ratio = p50 of page 4,000 / p50 of page 1.",
      figures: [
        figure('S3', `page ${DEEP_PAGE} / page 1 (p50 latency)`, 'ratio', ratios(p50(deep), p50('page 1')), { op: '<=', value: 1.2 }),
        figure('S3', `page 1 / page ${DEEP_PAGE} (throughput)`, 'ratio', ratios(rps('page 1'), rps(deep))),
        figure('S3', 'page 1 throughput', 'req/s', rps('page 1')),
        figure('S3', 'page 1 p50 latency', 'ms', p50('page 1')),
        figure(
          'S3',
          'ours CPU per request (page 1)',
          'µs',
          samples['page 1'].map((s) => s.cpuUsPerRequest),
        ),
      ],
      rounds: samples,
      checks,
    };
    if (bench.wantsProfile(report)) report.profile = await profileOurs(bench, 'S3', get(deepQuery));
    return report;
  } finally {
    await api.process.stop();
  }
}

/** The cursor the API would have returned with page DEEP_PAGE - 1: the position of that page's last row. */
async function deepCursor(runUrl: string, businessId: string): Promise<string> {
  const client = new pg.Client({ connectionString: runUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; micros: string }>(
      `SELECT id, (extract(epoch from starts_at) * 1000000)::bigint::text AS micros
         FROM appointments WHERE business_id = $1 AND starts_at >= $2 AND starts_at < $3
        ORDER BY starts_at, id OFFSET $4 LIMIT 1`,
      [businessId, FROM, TO, (DEEP_PAGE - 1) * LIMIT - 1],
    );
    // The scope AppointmentReadsService.list binds a cursor to: list, business, every filter.
    const scope: CursorScope = {
      list: 'appointments',
      businessId,
      filters: { from: String(parseDateTime(FROM)), to: String(parseDateTime(TO)), status: null, staffId: null },
    };
    return new CursorCodec(BENCH_SECRETS.CURSOR_SECRET).encode(scope, { micros: BigInt(rows[0].micros), id: rows[0].id });
  } finally {
    await client.end();
  }
}

async function checkPage(baseUrl: string, path: string, key: string): Promise<{ status: number; items: number; hasNext: boolean }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { data?: unknown[]; nextCursor?: string | null };
  return { status: response.status, items: body.data?.length ?? 0, hasNext: typeof body.nextCursor === 'string' };
}
