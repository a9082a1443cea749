import { randomUUID } from 'node:crypto';
import { rotation, type BusinessData } from '../data/catalogue.js';
import type { Bench, ScenarioReport } from '../harness/bench.js';
import { figure, ratios } from '../harness/figures.js';
import { burst, loadArm, type Requests, type RequestSpec } from '../harness/load.js';
import { profileOurs } from './profile-ours.js';
import { rawApiEnv } from './raw-api-env.js';

/** Bookings go after every generated appointment: the slots are free by construction. */
const FIRST_SLOT = Date.parse('2035-01-01T00:00:00Z');
const SLOT_MS = 30 * 60_000;
const RACE_REQUESTS = 64;

/**
 * Hands out free slots: per business, its staff in turn, then the next half hour. Shared by both
 * arms (they write to the same table), so no two requests ever ask for the same slot.
 */
class SlotAllocator {
  private readonly taken = new Map<string, number>();

  next(business: BusinessData): { staffId: string; startAt: string } {
    const n = this.taken.get(business.id) ?? 0;
    this.taken.set(business.id, n + 1);
    const staffId = business.staffIds[n % business.staffIds.length];
    const slot = Math.floor(n / business.staffIds.length);
    return { staffId, startAt: new Date(FIRST_SLOT + slot * SLOT_MS).toISOString() };
  }
}

/**
 * S4, POST /appointments into free slots (a distinct slot and Idempotency-Key per request): ours
 * against a bare INSERT into the same table by raw node:http + pg. Then the race: 64 concurrent
 * bookings of one slot, of which exactly one may succeed.
 */
export async function bookingScenario(bench: Bench): Promise<ScenarioReport> {
  const slots = new SlotAllocator();
  const raw = await bench.startServer('raw insert', 'raw-api.js', '/health', rawApiEnv(bench));
  const api = await bench.startApi('api (S4)');
  try {
    const samples = await bench.interleave('S4', [
      loadArm('raw insert', raw, bench.options.connections, bookings(bench, slots)),
      loadArm('ours', api, bench.options.connections, bookings(bench, slots)),
    ]);
    const race = await raceForOneSlot(bench, api.baseUrl, slots);
    const created = race.statusCounts['201'] ?? 0;
    const unexpected = Object.keys(race.statusCounts).filter((status) => status !== '201' && status !== '409');
    if (unexpected.length > 0) bench.log(`  S4 race answered ${unexpected.join(', ')}; the API's last output:\n${api.process.tail()}`);
    const rps = (arm: string) => samples[arm].map((s) => s.rps);
    const report: ScenarioReport = {
      id: 'S4',
      title: 'POST /appointments into free slots: ours against a raw INSERT',
      method:
        'Each request books a distinct free slot (staff working 00:00–24:00, half-hour grid from 2035) with its own Idempotency-Key; the baseline is one INSERT … SELECT into appointments per request (same columns, same constraints), no transaction around it.',
      figures: [
        // Issue 37's target: the whole machine's CPU per booking. The ratio to a raw INSERT is kept
        // as information: the INSERT keeps no idempotency record, reads no facts, writes no notice.
        figure(
          'S4',
          'ours machine CPU per booking (API + PostgreSQL + Redis)',
          'µs',
          samples.ours.map((s) => s.cpuUsPerRequest + s.engineCpuUsPerRequest.postgres + s.engineCpuUsPerRequest.redis),
          { op: '<=', value: 1500 },
        ),
        figure('S4', 'ours / raw insert (throughput)', 'ratio', ratios(rps('ours'), rps('raw insert'))),
        figure('S4', 'ours throughput', 'req/s', rps('ours')),
        figure('S4', 'raw insert throughput', 'req/s', rps('raw insert')),
        figure(
          'S4',
          'ours CPU per request',
          'µs',
          samples.ours.map((s) => s.cpuUsPerRequest),
        ),
        figure(
          'S4',
          'raw insert CPU per request',
          'µs',
          samples['raw insert'].map((s) => s.cpuUsPerRequest),
        ),
        figure(
          'S4',
          'ours PostgreSQL CPU per request',
          'µs',
          samples.ours.map((s) => s.engineCpuUsPerRequest.postgres),
        ),
        figure(
          'S4',
          'ours Redis CPU per request',
          'µs',
          samples.ours.map((s) => s.engineCpuUsPerRequest.redis),
        ),
        figure(
          'S4',
          'raw insert PostgreSQL CPU per request',
          'µs',
          samples['raw insert'].map((s) => s.engineCpuUsPerRequest.postgres),
        ),
        figure(
          'S4',
          'ours p99 latency',
          'ms',
          samples.ours.map((s) => s.latencyMs.p99),
        ),
        figure(
          'S4',
          'ours 201 share',
          'share',
          samples.ours.map((s) => s.admitted),
          { op: '>=', value: 0.999 },
        ),
        figure('S4', `race: 201s among ${RACE_REQUESTS} concurrent bookings of one slot`, 'count', [created], { op: '==', value: 1 }),
      ],
      rounds: samples,
      checks: { race },
    };
    if (bench.wantsProfile(report)) report.profile = await profileOurs(bench, 'S4', bookings(bench, slots));
    return report;
  } finally {
    await Promise.all([raw.process.stop(), api.process.stop()]);
  }
}

/** Every key in turn books the next free slot of its business. */
function bookings(bench: Bench, slots: SlotAllocator): Requests {
  const businesses = new Map(bench.catalogue.businesses.map((b) => [b.id, b]));
  const keys = rotation(bench.catalogue.keys);
  return {
    each: () => {
      const key = keys();
      const business = businesses.get(key.businessId)!;
      return bookingRequest(key.key, business, slots.next(business), randomUUID());
    },
  };
}

function bookingRequest(
  key: string,
  business: BusinessData,
  slot: { staffId: string; startAt: string },
  idempotencyKey: string,
): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/api/appointments',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({
      staffId: slot.staffId,
      serviceId: business.serviceId,
      startAt: slot.startAt,
      client: { id: business.clientId },
    }),
  };
}

/** 64 bookings of one free slot at once, each with its own Idempotency-Key, with the race key. */
async function raceForOneSlot(bench: Bench, baseUrl: string, slots: SlotAllocator) {
  const { raceKey, businesses } = bench.catalogue;
  const business = businesses.find((b) => b.id === raceKey.businessId)!;
  const slot = slots.next(business);
  const specs = Array.from({ length: RACE_REQUESTS }, () => bookingRequest(raceKey.key, business, slot, randomUUID()));
  const result = await burst(baseUrl, specs);
  bench.log(`  S4 race: ${JSON.stringify(result.statusCounts)}`);
  return { slot, ...result };
}
