import { AVAILABILITY_FACTS } from '#core/availability/availability-facts.repository.js';
import { AvailabilityModule } from '#core/availability/availability.module.js';
import { FreeTimesService } from '#core/availability/free-times.service.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, testSql, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * GET /availability reads its facts in one statement, whose appointments part must search the
 * exclusion index (staff member and interval) and read only the appointments that overlap the
 * range, however many the business has: here 200,000 on 20 staff members. Asserted on the plan's
 * nodes (EXPLAIN ANALYZE counts rows, not time), for the values' plan and the generic plan.
 */
const APPOINTMENTS = 200_000;
const STAFF = 20;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

let context: TestContext;
let db: TestSql;
let businessId: string;
let serviceId: string;

beforeAll(async () => {
  context = await startTestContext({ imports: [AvailabilityModule] });
  db = testSql(context.app);
  const business = await seed({
    members: [],
    timezone: 'UTC',
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: Array.from({ length: STAFF }, (_, i) => ({
      ref: `s${i}`,
      name: `Staff ${i}`,
      workingHours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '23:59' })),
    })),
    clients: [{ ref: 'client', name: 'Client', consent: true }],
  });
  businessId = business.id;
  serviceId = business.services.cut;
  const staffIds = Array.from({ length: STAFF }, (_, i) => business.staff[`s${i}`]);
  // Set-based, as the fixture loader would take minutes: each member a 30-minute appointment every
  // 30 minutes from 2031, statuses in rotation (a third active).
  await db.transaction(async (sql) => {
    await sql.query('SET LOCAL statement_timeout = 0');
    await sql.query(
      `INSERT INTO appointments (id, business_id, staff_id, service_name, client_id, status, starts_at, ends_at, duration_min,
                                 price_cents, currency, source, code)
       SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + i % ${STAFF}], 'Cut', $3,
              (ARRAY['PENDING','CONFIRMED','RESCHEDULED','CANCELLED','COMPLETED','NO_SHOW'])[1 + (i / ${STAFF}) % 6],
              t, t + interval '30 minutes', 30, 2000, 'EUR', 'dashboard', 'F' || i
         FROM generate_series(0, ${APPOINTMENTS - 1}) AS i,
              LATERAL (SELECT timestamptz '2031-01-01T00:00:00Z' + (i / ${STAFF}) * interval '30 minutes' AS t) AS start`,
      [businessId, staffIds, business.clients.client],
    );
  });
  await db.query('ANALYZE appointments');
}, 300_000);
afterAll(() => context.close());

describe('the facts of GET /availability in a business with 200,000 appointments', () => {
  const from = new Date('2031-03-03T00:00:00Z');
  const to = new Date('2031-03-10T00:00:00Z');

  it('searches the exclusion index and reads no more appointments than the range holds', async () => {
    const [{ n: inRange }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM appointments WHERE business_id = $1 AND status IN ('PENDING', 'CONFIRMED')
          AND starts_at < $3::timestamptz + interval '30 minutes' AND ends_at > $2`,
      [businessId, from, to],
    );
    expect(inRange).toBeGreaterThan(1000);
    for (const mode of ['auto', 'force_generic_plan'] as const) {
      const top = await db.transaction(async (sql) => {
        await sql.query(`SET LOCAL plan_cache_mode = ${mode}`);
        const [row] = await sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${AVAILABILITY_FACTS.text}`,
          [businessId, serviceId, null, from, to],
        );
        return row['QUERY PLAN'][0].Plan;
      });
      const scans = nodesOf(top).filter((n) => n['Relation Name'] === 'appointments' || n['Index Name'] === 'appointments_no_overlap');
      expect({ mode, scans: scans.map((s) => `${s['Node Type']} ${s['Index Name'] ?? ''}`.trim()) }).toEqual({
        mode,
        scans: expect.arrayContaining([expect.stringMatching(/Index Scan appointments_no_overlap$/)]),
      });
      const read = scans
        .filter((s) => s['Node Type'] === 'Index Scan' || s['Node Type'] === 'Bitmap Heap Scan' || s['Node Type'] === 'Seq Scan')
        .reduce((sum, s) => sum + s['Actual Rows']! * s['Actual Loops']!, 0);
      expect({ mode, read: read <= inRange }).toEqual({ mode, read: true });
      expect(scans.map((s) => s['Node Type'])).not.toContain('Seq Scan');
    }
  });

  it('answers a week of every member from those facts', async () => {
    const week = await context.app
      .get(FreeTimesService)
      .find(businessId, { serviceId, from: from.toISOString(), to: to.toISOString() }, new Date('2031-01-01T00:00:00Z'));
    // A third of the half-hours are taken (PENDING or CONFIRMED), the rest are free for all 20.
    expect(week.starts.length).toBeGreaterThan(100);
    expect(week.starts.every((s) => s.staffIds.length === STAFF)).toBe(true);
  });
});
