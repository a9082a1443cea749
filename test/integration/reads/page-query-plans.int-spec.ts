import { AppointmentReadsRepository, type AppointmentFilter } from '#core/appointments/appointment-reads.repository.js';
import { ClientsRepository } from '#core/clients/clients.repository.js';
import { parseDateTime } from '#core/pagination/epoch-micros.js';
import type { KeysetPosition } from '#core/pagination/keyset-position.js';
import { PaymentReadsRepository } from '#core/payments/payment-reads.repository.js';
import { SaleReadsRepository } from '#core/sales/sale-reads.repository.js';
import type { BoundStatement, StatementParams } from '#database/statement.js';
import { seed } from '../../utils/seed.js';
import type { TestContext, TestSql } from '../../utils/test-context.js';
import { startReads } from './reads-test.module.js';
import { bulkInsert } from '../../utils/bulk-insert.js';

/**
 * A page deep in a big list must cost the same as the first: the repositories' exact SQL is
 * planned as an index range scan that starts at the cursor and stops after `take` rows, with no
 * OFFSET and no sort. Asserted on the plan's nodes (EXPLAIN ANALYZE counts rows, not time), for
 * the plan of the given values and for the generic plan a named statement switches to after five
 * runs (plan_cache_mode = force_generic_plan).
 */
const APPOINTMENTS = 200_000;
const OTHERS = 100_000;
const TAKE = 51;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

let context: TestContext;
let db: TestSql;
let businessId: string;
let staffIds: string[];
let clientIds: string[];

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The nodes of the page itself, without those of its per-row subplans (an appointment's rescheduledToId). */
function pageNodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan').flatMap(pageNodesOf)];
}

/** The subplans run per row of the page. */
function subPlansOf(node: PlanNode): PlanNode[] {
  return (node.Plans ?? []).flatMap((child) => (child['Parent Relationship'] === 'SubPlan' ? [child] : subPlansOf(child)));
}

type Page = BoundStatement<StatementParams, unknown>;
type Plan = { top: PlanNode; nodes: PlanNode[] };

async function explain(page: Page, planCacheMode: 'auto' | 'force_generic_plan'): Promise<Plan> {
  return db.transaction(async (sql) => {
    await sql.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
    const [row] = await sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${page.statement.text}`, [
      ...page.params,
    ]);
    const top = row['QUERY PLAN'][0].Plan;
    return { top, nodes: nodesOf(top) };
  });
}

/** The position of the n-th row of a list in its order: where a cursor deep in the list points. */
async function positionAt(table: string, time: string, n: number, where = ''): Promise<KeysetPosition> {
  const [row] = await db.query<{ id: string; micros: string }[]>(
    `SELECT id, (extract(epoch from ${time}) * 1000000)::bigint::text AS micros FROM ${table}
      WHERE business_id = $1 ${where} ORDER BY ${time}, id OFFSET $2 LIMIT 1`,
    [businessId, n],
  );
  return { id: row.id, micros: BigInt(row.micros) };
}

/**
 * The scan of `table` is a bounded index range scan on `index`, and nothing in the plan sorts,
 * both for these values and in the generic plan.
 */
async function expectKeysetPlan(page: Page, table: string, index: string, keyset: string): Promise<void> {
  expect(page.statement.text).not.toMatch(/\bOFFSET\b/i);
  for (const mode of ['auto', 'force_generic_plan'] as const) expectKeysetPlanOf(await explain(page, mode), table, index, keyset);
}

function expectKeysetPlanOf(plan: Plan, table: string, index: string, keyset: string): void {
  expect(plan.top['Node Type']).toBe('Limit');
  expect(plan.nodes.map((n) => n['Node Type'])).not.toEqual(expect.arrayContaining(['Sort']));
  expect(plan.nodes.map((n) => n['Node Type'])).not.toEqual(expect.arrayContaining(['Incremental Sort']));
  const scans = pageNodesOf(plan.top).filter((n) => n['Relation Name'] === table);
  expect(scans).toHaveLength(1);
  // An appointment's rescheduledToId (docs/design-record.md#d23) is one probe of its index per row, and nothing else.
  for (const subPlan of subPlansOf(plan.top)) {
    const probes = nodesOf(subPlan).filter((n) => n['Relation Name'] !== undefined);
    expect(probes.map((n) => [n['Relation Name'], n['Index Name']])).toEqual([['appointments', 'appointments_rescheduled_from_idx']]);
  }
  expect(subPlansOf(plan.top)).toHaveLength(table === 'appointments' ? 1 : 0);
  const [scan] = scans;
  expect(scan['Node Type']).toBe('Index Scan');
  expect(scan['Index Name']).toBe(index);
  // The cursor is a bound of the index scan, not a filter applied to every row before it.
  expect(scan['Index Cond']).toContain(`(ROW(${keyset}) > ROW(`);
  expect(scan['Actual Rows']! * scan['Actual Loops']!).toBeLessThanOrEqual(TAKE);
  expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
}

beforeAll(async () => {
  context = await startReads();
  db = context.sql;
  const business = await seed({
    members: [],
    staff: [0, 1, 2, 3].map((i) => ({ ref: `s${i}`, name: `Staff ${i}` })),
    clients: [0, 1, 2, 3, 4].map((i) => ({ ref: `c${i}`, name: `Client ${i}`, consent: true })),
  });
  businessId = business.id;
  staffIds = [0, 1, 2, 3].map((i) => business.staff[`s${i}`]);
  clientIds = [0, 1, 2, 3, 4].map((i) => business.clients[`c${i}`]);
  // One statement: four staff members in turn, a 30-minute appointment every 30 minutes (each
  // staff member's never overlap), statuses and five clients in rotation, each updated when it starts.
  await bulkInsert(
    db,
    `INSERT INTO appointments (id, business_id, staff_id, service_name, client_id, status, starts_at, ends_at, duration_min,
                               price_cents, currency, source, code, updated_at)
     SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + i % 4], 'Cut', ($3::uuid[])[1 + i % 5],
            (ARRAY['PENDING','CONFIRMED','RESCHEDULED','CANCELLED','COMPLETED','NO_SHOW'])[1 + i % 6],
            t, t + interval '30 minutes', 30, 2000, 'EUR', 'dashboard', 'P' || i, t
       FROM generate_series(0, ${APPOINTMENTS - 1}) AS i,
            LATERAL (SELECT timestamptz '2020-01-01T00:00:00Z' + i * interval '30 minutes' AS t) AS start`,
    [businessId, staffIds, clientIds],
  );
  await bulkInsert(
    db,
    `INSERT INTO clients (id, business_id, name, consent, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'Client ' || i, true, t, t
       FROM generate_series(1, ${OTHERS}) AS i,
            LATERAL (SELECT timestamptz '2020-01-01T00:00:00Z' + i * interval '1 second' + (i % 7) * interval '1 microsecond' AS t) AS stamp`,
    [businessId],
  );
  await bulkInsert(
    db,
    `INSERT INTO payments (id, business_id, appointment_id, channel, method, status, amount_cents, currency, created_at, updated_at)
     SELECT gen_random_uuid(), a.business_id, a.id, 'IN_PERSON', 'CARD', 'PAID', 2000, 'EUR', a.ends_at, a.ends_at
       FROM appointments a WHERE a.business_id = $1 ORDER BY a.starts_at LIMIT ${OTHERS}`,
    [businessId],
  );
  await bulkInsert(
    db,
    `INSERT INTO sales (id, business_id, number, status, subtotal_cents, discount_cents, total_cents, currency, created_at, updated_at)
     SELECT gen_random_uuid(), $1, i, 'COMPLETED', 2000, 0, 2000, 'EUR', t, t
       FROM generate_series(1, ${OTHERS}) AS i,
            LATERAL (SELECT timestamptz '2020-01-01T00:00:00Z' + i * interval '1 minute' AS t) AS stamp`,
    [businessId],
  );
  for (const table of ['appointments', 'clients', 'payments', 'sales', 'staff']) await db.query(`ANALYZE ${table}`);
}, 300_000);
afterAll(() => context.close());

describe('GET /appointments: a page deep in 200,000 appointments', () => {
  const everything: AppointmentFilter = {
    order: 'start',
    from: parseDateTime('2020-01-01T00:00:00Z')!,
    to: parseDateTime('2040-01-01T00:00:00Z')!,
    updatedSince: null,
    status: null,
    staffId: null,
    clientId: null,
  };

  it('is an index range scan from the cursor on (business_id, starts_at, id), without OFFSET or sort', async () => {
    const repository = context.app.get(AppointmentReadsRepository);
    const after = await positionAt('appointments', 'starts_at', 150_000);
    const query = repository.pageStatement(businessId, everything, { after, take: TAKE });
    await expectKeysetPlan(query, 'appointments', 'appointments_business_start_idx', 'starts_at, id');
    // And it is the page that follows the cursor.
    const rows = await repository.listPage(businessId, everything, { after, take: TAKE });
    expect(rows).toHaveLength(TAKE);
    expect(rows[0].position).toEqual(await positionAt('appointments', 'starts_at', 150_001));
  });

  it('uses the status index when filtering by status', async () => {
    const filter = { ...everything, status: 'CANCELLED' as const };
    const after = await positionAt('appointments', 'starts_at', 30_000, `AND status = 'CANCELLED'`);
    const query = context.app.get(AppointmentReadsRepository).pageStatement(businessId, filter, { after, take: TAKE });
    await expectKeysetPlan(query, 'appointments', 'appointments_business_status_start_idx', 'starts_at, id');
  });

  it('uses the staff index when filtering by staff member', async () => {
    const filter = { ...everything, staffId: staffIds[2] };
    const after = await positionAt('appointments', 'starts_at', 40_000, `AND staff_id = '${staffIds[2]}'`);
    const query = context.app.get(AppointmentReadsRepository).pageStatement(businessId, filter, { after, take: TAKE });
    await expectKeysetPlan(query, 'appointments', 'appointments_business_staff_start_idx', 'starts_at, id');
  });

  it('uses the client index when filtering by client (1.4.0)', async () => {
    const filter = { ...everything, clientId: clientIds[3] };
    const after = await positionAt('appointments', 'starts_at', 30_000, `AND client_id = '${clientIds[3]}'`);
    const query = context.app.get(AppointmentReadsRepository).pageStatement(businessId, filter, { after, take: TAKE });
    await expectKeysetPlan(query, 'appointments', 'appointments_business_client_start_idx', 'starts_at, id');
  });

  it('in order of update (updatedSince, 1.4.0) is an index range scan on (business_id, updated_at, id)', async () => {
    const byUpdate: AppointmentFilter = {
      ...everything,
      order: 'update',
      from: null,
      to: null,
      updatedSince: parseDateTime('2020-01-01T00:00:00Z')!,
    };
    const repository = context.app.get(AppointmentReadsRepository);
    const after = await positionAt('appointments', 'updated_at', 150_000);
    await expectKeysetPlan(
      repository.pageStatement(businessId, byUpdate, { after, take: TAKE }),
      'appointments',
      'appointments_business_updated_idx',
      'updated_at, id',
    );
    // And it is the page that follows the cursor, in order of update.
    const rows = await repository.listPage(businessId, byUpdate, { after, take: TAKE });
    expect(rows).toHaveLength(TAKE);
    expect(rows[0].position).toEqual(await positionAt('appointments', 'updated_at', 150_001));
    // A first page starts at updatedSince, on the same index.
    const first = repository.pageStatement(
      businessId,
      { ...byUpdate, updatedSince: parseDateTime('2025-01-01T00:00:00Z')! },
      { after: null, take: TAKE },
    );
    await expectKeysetPlan(first, 'appointments', 'appointments_business_updated_idx', 'updated_at, id');
    // With a client, on the client's own index in update order.
    const clientAfter = await positionAt('appointments', 'updated_at', 20_000, `AND client_id = '${clientIds[1]}'`);
    const byClient = repository.pageStatement(businessId, { ...byUpdate, clientId: clientIds[1] }, { after: clientAfter, take: TAKE });
    await expectKeysetPlan(byClient, 'appointments', 'appointments_business_client_updated_idx', 'updated_at, id');
  });

  it('stays an index range scan within a narrow window', async () => {
    const window = { ...everything, from: parseDateTime('2025-01-01T00:00:00Z')!, to: parseDateTime('2025-02-01T00:00:00Z')! };
    const after = await positionAt('appointments', 'starts_at', 0, `AND starts_at >= '2025-01-10T00:00:00Z'`);
    const query = context.app.get(AppointmentReadsRepository).pageStatement(businessId, window, { after, take: TAKE });
    await expectKeysetPlan(query, 'appointments', 'appointments_business_start_idx', 'starts_at, id');
  });
});

describe('the lists in update order: a page deep in 100,000 rows', () => {
  const since = parseDateTime('2020-01-01T00:00:00Z')!;

  it('GET /clients is an index range scan on (business_id, updated_at, id)', async () => {
    const after = await positionAt('clients', 'updated_at', 80_000);
    const query = context.app.get(ClientsRepository).pageStatement(businessId, since, { after, take: TAKE });
    await expectKeysetPlan(query, 'clients', 'clients_business_updated_idx', 'updated_at, id');
  });

  it('GET /clients?phone= and ?email= probe the unique indexes of D7, one row at most, from any cursor (D21)', async () => {
    // Give every client of the big list a phone and an e-mail (mixed case), as real lists have,
    // keeping their instants (docs/design-record.md#d27): the list keeps its spread of updates.
    await db.queryWithGivenStamps(
      `UPDATE clients c SET phone = '+35191' || lpad(numbered.n::text, 7, '0'), email = 'Client' || numbered.n || '@Example.com'
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM clients WHERE business_id = $1) AS numbered
        WHERE c.id = numbered.id`,
      [businessId],
    );
    await db.query('ANALYZE clients');
    const [target] = await db.query<{ id: string; phone: string; email: string }[]>(
      'SELECT id, phone, email FROM clients WHERE business_id = $1 ORDER BY updated_at, id OFFSET 50000 LIMIT 1',
      [businessId],
    );
    const repository = context.app.get(ClientsRepository);
    const lookups = [
      { lookup: { phone: target.phone, email: null }, indexes: ['clients_business_phone_key'] },
      { lookup: { phone: null, email: target.email.toLowerCase() }, indexes: ['clients_business_email_key'] },
      {
        lookup: { phone: target.phone, email: target.email.toLowerCase() },
        indexes: ['clients_business_phone_key', 'clients_business_email_key'],
      },
    ];
    const after = await positionAt('clients', 'updated_at', 10_000);
    for (const { lookup, indexes } of lookups) {
      for (const request of [
        { after: null, take: TAKE },
        { after, take: TAKE },
      ]) {
        const query = repository.pageStatement(businessId, since, request, lookup);
        for (const mode of ['auto', 'force_generic_plan'] as const) {
          const scans = (await explain(query, mode)).nodes.filter((n) => n['Relation Name'] === 'clients');
          expect(scans).toHaveLength(1);
          expect(indexes).toContain(scans[0]['Index Name']);
          expect(scans[0]['Actual Rows']! * scans[0]['Actual Loops']!).toBeLessThanOrEqual(1);
        }
        const rows = await repository.listPage(businessId, since, request, lookup);
        expect(rows.map((row) => row.record.id)).toEqual([target.id]);
      }
    }
  });

  it('GET /payments is an index range scan on (business_id, updated_at, id)', async () => {
    const after = await positionAt('payments', 'updated_at', 80_000);
    const query = context.app.get(PaymentReadsRepository).pageStatement(businessId, null, { after, take: TAKE });
    await expectKeysetPlan(query, 'payments', 'payments_business_updated_idx', 'updated_at, id');
  });

  it('GET /sales is an index range scan on (business_id, updated_at, id)', async () => {
    const after = await positionAt('sales', 'updated_at', 80_000);
    const query = context.app.get(SaleReadsRepository).pageStatement(businessId, since, { after, take: TAKE });
    await expectKeysetPlan(query, 'sales', 'sales_business_updated_idx', 'updated_at, id');
  });
});
