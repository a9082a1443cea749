import { AppointmentReadsModule } from '#core/appointments/appointment-reads.module.js';
import { AppointmentReadsRepository, FIND_BY_ID, type AppointmentFilter } from '#core/appointments/appointment-reads.repository.js';
import { CODE_TAKEN } from '#core/appointments/appointments.repository.js';
import { SLOT_FACTS } from '#core/availability/slot-facts.repository.js';
import { ClientReadsModule } from '#core/clients/client-reads.module.js';
import { CLIENT_CLASH, ClientsRepository } from '#core/clients/clients.repository.js';
import { CLAIM, PURGE_EXPIRED, PURGE_LAPSED_CLAIMS, TAKE_LIVE } from '#core/idempotency/idempotency.repository.js';
import { LOCK_UNRELAYED, PURGE_BATCH as PURGE_EMAILS, UNSENT_RELAYED } from '#core/mail/outbound-emails.repository.js';
import { ATTEMPTS_OF, DELIVERY_PAGE } from '#core/notices/delivery-history/delivery-history.repository.js';
import {
  DELIVERIES_FOR_SENDING,
  DUE_DELIVERIES,
  ENDPOINT_ATTEMPTS_PAGE,
  FAIL_PENDING_OF_ENDPOINT,
  LIST_DELIVERIES,
  REDELIVER,
} from '#core/notices/delivery/notice-deliveries.repository.js';
import { EVENT_BY_ID, EVENT_PAGE } from '#core/notices/event-log/events.repository.js';
import { OUTBOX_BACKLOG } from '#core/notices/outbox/notice-pipeline-metrics.repository.js';
import { NOTICE_RETENTION_MS } from '#core/notices/outbox/notice-channel.js';
import { CLAIM_UNRELAYED, PURGE_BATCH as PURGE_NOTICES } from '#core/notices/outbox/notices.repository.js';
import { parseDateTime } from '#core/pagination/epoch-micros.js';
import type { BoundStatement, Statement, StatementParams } from '#database/statement.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';
import { bulkInsert } from '../../utils/bulk-insert.js';

/**
 * Every row a booking or a delivery writes pays for every index of its table (issue 37; the write
 * path, docs/design-record.md#write-path), so each index of those tables must be needed by a read
 * or a rule. Here each one is either planned by a statement of the service that needs it (its
 * real text, imported from its repository, EXPLAINed with realistic values), planned by the check
 * of a foreign key whose referenced rows the service deletes, or kept for a rule it enforces (a
 * duplicate is refused). An index of these tables that is none of these fails the last test: a new
 * index comes with the query that uses it, or it does not come.
 */
const TABLES = [
  'appointments',
  'business_change_clocks',
  'clients',
  'delivery_attempts',
  'idempotency_claims',
  'idempotency_records',
  'notice_deliveries',
  'notices',
  'outbound_emails',
] as const;

const APPOINTMENTS = 20_000;
const ROWS = 10_000;
const TAKE = 51;
/** Other businesses whose notices share the tables: a business's reads find its own rows among theirs. */
const NEIGHBOURS = 9;

/** What the setup wrote, for the statements' parameters. */
interface Seeded {
  businessId: string;
  staffId: string;
  clientId: string;
  endpointId: string;
  apiKeyId: string;
  /** An active appointment, the previous one of another (rescheduled_from_id). */
  appointment: { id: string; code: string; startsAt: Date; endsAt: Date };
  client: { id: string; phone: string; email: string };
  notice: { id: string };
  delivery: { id: string };
  idempotencyKey: string;
}

type Bound = BoundStatement<StatementParams, unknown>;
const bound = <P extends StatementParams, R>(statement: Statement<P, R>, params: P): Bound => ({ statement, params });

let context: TestContext;
let db: TestSql;
let seeded: Seeded;
/** The businesses the setup wrote rows for: the one read, and its neighbours. */
let seededBusinessIds: string[] = [];

const reads = () => context.app.get(AppointmentReadsRepository);
const clients = () => context.app.get(ClientsRepository);
const since = (ms: number) => new Date(Date.now() - ms);
/** A first page of GET /appointments: every appointment by start, or by update, with the filters given. */
const appointmentPage = (filter: Partial<AppointmentFilter>): Bound =>
  reads().pageStatement(
    seeded.businessId,
    {
      order: 'start',
      from: parseDateTime('2031-01-01T00:00:00Z'),
      to: parseDateTime('2032-01-01T00:00:00Z'),
      updatedSince: null,
      status: null,
      staffId: null,
      clientId: null,
      ...filter,
    },
    { after: null, take: TAKE },
  );
const byUpdate: Partial<AppointmentFilter> = { order: 'update', from: null, to: null, updatedSince: parseDateTime('2020-01-01T00:00:00Z') };

/**
 * The indexes a statement of the service is planned on, each with the statements that need it (a
 * read's WHERE and ORDER BY, a write's lookup, the worker's relay, a retention purge).
 */
const PLANNED: Record<string, ((s: Seeded) => Bound)[]> = {
  appointments_business_start_idx: [() => appointmentPage({})],
  appointments_business_staff_start_idx: [(s) => appointmentPage({ staffId: s.staffId })],
  appointments_business_status_start_idx: [() => appointmentPage({ status: 'CANCELLED' })],
  appointments_business_client_start_idx: [(s) => appointmentPage({ clientId: s.clientId })],
  // The update order of 1.4.0: incremental sync by updatedSince (docs/design-record.md#d23, #d27).
  // Its staff and status filters are applied to this index's rows, as is a range of starts.
  appointments_business_updated_idx: [
    () => appointmentPage(byUpdate),
    (s) => appointmentPage({ ...byUpdate, staffId: s.staffId }),
    () => appointmentPage({ ...byUpdate, status: 'CONFIRMED' }),
    () => appointmentPage({ ...byUpdate, from: parseDateTime('2031-03-01T00:00:00Z'), to: parseDateTime('2031-04-01T00:00:00Z') }),
  ],
  appointments_business_client_updated_idx: [(s) => appointmentPage({ ...byUpdate, clientId: s.clientId })],
  appointments_code_key: [(s) => bound(CODE_TAKEN, [s.businessId, s.appointment.code])],
  appointments_no_overlap: [(s) => bound(SLOT_FACTS, [s.businessId, s.staffId, s.appointment.startsAt, s.appointment.endsAt, null])],
  // rescheduledToId (docs/design-record.md#d23): the appointment that names this one as its previous one.
  appointments_rescheduled_from_idx: [(s) => bound(FIND_BY_ID, [s.businessId, s.appointment.id])],
  clients_business_updated_idx: [
    (s) => clients().pageStatement(s.businessId, parseDateTime('2020-01-01T00:00:00Z'), { after: null, take: TAKE }),
  ],
  clients_business_phone_key: [
    (s) => clients().pageStatement(s.businessId, null, { after: null, take: TAKE }, { phone: s.client.phone, email: null }),
    (s) => bound(CLIENT_CLASH, [s.businessId, s.client.phone, null]),
  ],
  clients_business_email_key: [
    (s) => clients().pageStatement(s.businessId, null, { after: null, take: TAKE }, { phone: null, email: s.client.email }),
    (s) => bound(CLIENT_CLASH, [s.businessId, null, s.client.email]),
  ],
  notices_business_created_idx: [
    (s) => bound(EVENT_PAGE, [s.businessId, ['appointment.created'], since(NOTICE_RETENTION_MS).toISOString(), null, null, TAKE, null]),
  ],
  notices_created_idx: [() => bound(PURGE_NOTICES, [since(NOTICE_RETENTION_MS), 1000])],
  notices_unrelayed_idx: [() => bound(CLAIM_UNRELAYED, [100]), () => bound(OUTBOX_BACKLOG, [])],
  notice_deliveries_business_created_idx: [
    (s) => bound(DELIVERY_PAGE, [s.businessId, null, null, null, null, null, TAKE]),
    (s) => bound(LIST_DELIVERIES, [s.businessId, null, null, TAKE]),
  ],
  notice_deliveries_endpoint_status_idx: [(s) => bound(FAIL_PENDING_OF_ENDPOINT, [s.businessId, s.endpointId])],
  notice_deliveries_notice_endpoint_key: [
    (s) => bound(DELIVERIES_FOR_SENDING, [[s.businessId], [s.notice.id], [s.endpointId]]),
    (s) => bound(EVENT_BY_ID, [s.businessId, s.notice.id, ['appointment.created'], since(NOTICE_RETENTION_MS).toISOString()]),
  ],
  notice_deliveries_pending_due_idx: [() => bound(DUE_DELIVERIES, [null, null, null, 100])],
  delivery_attempts_delivery_idx: [(s) => bound(ATTEMPTS_OF, [s.businessId, s.delivery.id])],
  delivery_attempts_endpoint_idx: [(s) => bound(ENDPOINT_ATTEMPTS_PAGE, [s.endpointId, since(NOTICE_RETENTION_MS), null, null, TAKE])],
  outbound_emails_created_idx: [() => bound(PURGE_EMAILS, [since(NOTICE_RETENTION_MS), 1000])],
  outbound_emails_unrelayed_idx: [() => bound(LOCK_UNRELAYED, [100])],
  outbound_emails_unsent_idx: [() => bound(UNSENT_RELAYED, [5, null, null, 100])],
  idempotency_records_key: [(s) => bound(TAKE_LIVE, [s.apiKeyId, s.idempotencyKey])],
  idempotency_records_expires_idx: [() => bound(PURGE_EXPIRED, [new Date()])],
  idempotency_claims_expires_idx: [() => bound(PURGE_LAPSED_CLAIMS, [new Date()])],
};

/**
 * Indexes that the check of a foreign key is planned on: PostgreSQL looks the referencing rows up
 * by the key's columns for each referenced row deleted (a sandbox reset deletes its business's
 * appointments, the retention purge notices, an endpoint's deletion its deliveries). Without an
 * index each of those lookups reads the whole table.
 */
const FOREIGN_KEYS: Record<string, { table: (typeof TABLES)[number]; column: string; referenced: (s: Seeded) => string }> = {
  appointments_rescheduled_from_idx: { table: 'appointments', column: 'rescheduled_from_id', referenced: (s) => s.appointment.id },
  notice_deliveries_notice_endpoint_key: { table: 'notice_deliveries', column: 'notice_id', referenced: (s) => s.notice.id },
  notice_deliveries_endpoint_status_idx: { table: 'notice_deliveries', column: 'endpoint_id', referenced: (s) => s.endpointId },
  delivery_attempts_delivery_idx: { table: 'delivery_attempts', column: 'delivery_id', referenced: (s) => s.delivery.id },
  // Its only reader: an appointment deleted (its sandbox reset) takes its e-mails with it.
  outbound_emails_appointment_idx: { table: 'outbound_emails', column: 'appointment_id', referenced: (s) => s.appointment.id },
};

/**
 * Indexes kept for a rule they enforce, asserted by the rule: a second row that breaks it is
 * refused, naming the index. `duplicate` inserts such a row, copied from one the setup wrote.
 * Every table's primary key is kept too (the row's identity, and what foreign keys reference).
 */
const RULES: Record<string, { rule: string; code: string; duplicate: (s: Seeded) => [text: string, params: unknown[]] }> = {
  appointments_code_key: {
    rule: "an appointment's code is unique in its business",
    code: '23505',
    duplicate: (s) => [
      `INSERT INTO appointments (id, business_id, staff_id, service_name, client_id, status, starts_at, ends_at, duration_min,
                                 price_cents, currency, source, code)
       SELECT gen_random_uuid(), business_id, staff_id, service_name, client_id, 'CANCELLED', starts_at, ends_at, duration_min,
              price_cents, currency, source, code
         FROM appointments WHERE id = $1`,
      [s.appointment.id],
    ],
  },
  appointments_no_overlap: {
    rule: 'a staff member has no two active appointments that overlap (no double booking, docs/design-record.md#d6)',
    code: '23P01',
    duplicate: (s) => [
      `INSERT INTO appointments (id, business_id, staff_id, service_name, client_id, status, starts_at, ends_at, duration_min,
                                 price_cents, currency, source, code)
       SELECT gen_random_uuid(), business_id, staff_id, service_name, client_id, 'CONFIRMED', starts_at + interval '10 minutes',
              ends_at + interval '10 minutes', duration_min, price_cents, currency, source, 'OVERLAP'
         FROM appointments WHERE id = $1`,
      [s.appointment.id],
    ],
  },
  clients_business_phone_key: {
    rule: "a client's phone is unique in its business (docs/design-record.md#d7)",
    code: '23505',
    duplicate: (s) => [
      `INSERT INTO clients (id, business_id, name, phone, consent) SELECT gen_random_uuid(), business_id, 'Twin', phone, true FROM clients WHERE id = $1`,
      [s.client.id],
    ],
  },
  clients_business_email_key: {
    rule: "a client's e-mail is unique in its business, in any case (docs/design-record.md#d7)",
    code: '23505',
    duplicate: (s) => [
      `INSERT INTO clients (id, business_id, name, email, consent) SELECT gen_random_uuid(), business_id, 'Twin', upper(email), true FROM clients WHERE id = $1`,
      [s.client.id],
    ],
  },
  notice_deliveries_notice_endpoint_key: {
    rule: 'one delivery per notice and endpoint: the conflict target of the relay and of a redelivery',
    code: '23505',
    duplicate: (s) => [
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id)
       SELECT gen_random_uuid(), business_id, notice_id, endpoint_id FROM notice_deliveries WHERE id = $1`,
      [s.delivery.id],
    ],
  },
  idempotency_records_key: {
    rule: 'one stored answer per key and Idempotency-Key',
    code: '23505',
    duplicate: (s) => [
      `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body, response_content_type, expires_at)
       SELECT gen_random_uuid(), api_key_id, idempotency_key, fingerprint, response_status, response_body, response_content_type, expires_at
         FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2`,
      [s.apiKeyId, s.idempotencyKey],
    ],
  },
};

/** Primary keys whose rule is more than identity: the conflict target of a statement. */
const PRIMARY_KEY_RULES: Partial<Record<(typeof TABLES)[number], string>> = {
  idempotency_claims: 'one claim per key and Idempotency-Key: the conflict target of claim_idempotency_key',
  business_change_clocks: 'one clock per business: the conflict target of business_change_stamp() (docs/design-record.md#d27)',
};

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The indexes in the plan of `text` for `params`. */
async function indexesPlanned(text: string, params: readonly unknown[]): Promise<string[]> {
  return db.transaction(async (sql) => {
    // The question is whether the statement can and does use the index, not whether this table
    // is yet big enough for the index to beat reading it whole: with sequential scans priced out,
    // the plan is the one a large table gets, whatever the autovacuum's last count of its rows.
    await sql.query('SET LOCAL enable_seqscan = off');
    const [row] = await sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (FORMAT JSON) ${text}`, [...params]);
    return nodesOf(row['QUERY PLAN'][0].Plan).flatMap((node) => (node['Index Name'] === undefined ? [] : [node['Index Name']]));
  });
}

beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentReadsModule, ClientReadsModule] });
  db = context.sql;
  const business = await seed({
    timezone: 'UTC',
    staff: [0, 1, 2, 3].map((i) => ({ ref: `s${i}`, name: `Staff ${i}` })),
    webhooks: [{ ref: 'hook', url: 'http://127.0.0.1:9/hook', events: ['appointment.created'] }],
  });
  const businessId = business.id;
  const staffIds = [0, 1, 2, 3].map((i) => business.staff[`s${i}`]);
  const endpointId = business.webhooks.hook.id;
  const [{ id: apiKeyId }] = await db.query<{ id: string }[]>('SELECT id FROM api_keys WHERE business_id = $1', [businessId]);

  await bulkInsert(
    db,
    `INSERT INTO clients (id, business_id, name, phone, email, consent, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'Client ' || i, '+35191' || lpad(i::text, 7, '0'), 'client' || i || '@example.com', true, t, t
       FROM generate_series(1, ${ROWS}) AS i, LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * interval '1 minute' AS t) AS stamp`,
    [businessId],
  );
  // Four members in turn, a 30-minute appointment every 30 minutes (a member's never overlap),
  // statuses and 50 clients in rotation, each updated when it starts.
  await bulkInsert(
    db,
    `INSERT INTO appointments (id, business_id, staff_id, service_name, client_id, status, starts_at, ends_at, duration_min,
                               price_cents, currency, source, code, created_at, updated_at)
     SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + i % 4], 'Cut', c.id,
            (ARRAY['PENDING','CONFIRMED','RESCHEDULED','CANCELLED','COMPLETED','NO_SHOW'])[1 + i % 6],
            t, t + interval '30 minutes', 30, 2000, 'EUR', 'dashboard', 'P' || i, t, t
       FROM generate_series(0, ${APPOINTMENTS - 1}) AS i,
            LATERAL (SELECT timestamptz '2031-01-01T00:00:00Z' + i * interval '30 minutes' AS t) AS start,
            LATERAL (SELECT id FROM clients WHERE business_id = $1 AND phone = '+35191' || lpad((1 + i % 50)::text, 7, '0')) AS c`,
    [businessId, staffIds],
  );
  // 40 days of notices (ten past the retention), all relayed but the last hundred, each with its
  // delivery to its business's endpoint (a fiftieth still pending, due) and one attempt. The
  // business's are one in a hundred, the rest its neighbours', as on a server of many businesses:
  // a business that is a tenth of a table has its pages read as well off the table's time index.
  const neighbours = [];
  for (let i = 0; i < NEIGHBOURS; i++) {
    neighbours.push(
      await seed({ members: [], webhooks: [{ ref: 'hook', url: `http://127.0.0.1:9/hook${i}`, events: ['appointment.created'] }] }),
    );
  }
  const businessIds = [businessId, ...neighbours.map((neighbour) => neighbour.id)];
  seededBusinessIds = businessIds;
  const endpointIds = [endpointId, ...neighbours.map((neighbour) => neighbour.webhooks.hook.id)];
  await bulkInsert(
    db,
    `INSERT INTO notices (id, business_id, type, payload, created_at, relayed_at)
     SELECT gen_random_uuid(), CASE WHEN i % 100 = 0 THEN $2::uuid ELSE ($1::uuid[])[1 + i % ${NEIGHBOURS}] END, 'appointment.created',
            jsonb_build_object('data', jsonb_build_object('id', gen_random_uuid())), t, CASE WHEN i <= ${ROWS - 100} THEN t END
       FROM generate_series(1, ${ROWS}) AS i, LATERAL (SELECT now() - interval '40 days' + i * interval '40 days' / ${ROWS} AS t) AS stamp`,
    [neighbours.map((neighbour) => neighbour.id), businessId],
  );
  await bulkInsert(
    db,
    `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, next_attempt_at, delivered_at, created_at, updated_at)
     SELECT gen_random_uuid(), n.business_id, n.id, ($2::uuid[])[array_position($1::uuid[], n.business_id)],
            CASE WHEN pending THEN 'PENDING' ELSE 'DELIVERED' END, 1,
            CASE WHEN pending THEN n.created_at + interval '1 minute' END, CASE WHEN NOT pending THEN n.created_at END, n.created_at, n.created_at
       FROM (SELECT *, row_number() OVER (ORDER BY created_at) % 50 = 0 AS pending FROM notices WHERE business_id = ANY($1::uuid[])) AS n`,
    [businessIds, endpointIds],
  );
  await bulkInsert(
    db,
    `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms)
     SELECT gen_random_uuid(), d.id, d.endpoint_id, 1, d.created_at, CASE WHEN d.status = 'DELIVERED' THEN 200 ELSE 503 END, 120
       FROM notice_deliveries d WHERE d.business_id = ANY($1::uuid[])`,
    [businessIds],
  );
  // An e-mail for each of the first appointments, over the same 40 days: all sent but the last
  // hundred, of which half not yet relayed.
  await bulkInsert(
    db,
    `INSERT INTO outbound_emails (id, business_id, appointment_id, kind, audience, recipient, sender_name, subject, body_text,
                                  calendar, calendar_method, created_at, relayed_at, sent_at, attempts)
     SELECT gen_random_uuid(), a.business_id, a.id, 'APPOINTMENT_BOOKED', 'CLIENT', 'client@example.com', 'Salon', 'Booked', 'Booked.',
            'BEGIN:VCALENDAR', 'REQUEST', t, CASE WHEN n <= ${ROWS - 50} THEN t END, CASE WHEN n <= ${ROWS - 100} THEN t END,
            CASE WHEN n <= ${ROWS - 100} THEN 1 ELSE 0 END
       FROM (SELECT id, business_id, row_number() OVER (ORDER BY starts_at) AS n FROM appointments WHERE business_id = $1) AS a,
            LATERAL (SELECT now() - interval '40 days' + n * interval '40 days' / ${ROWS} AS t) AS stamp
      WHERE n <= ${ROWS}`,
    [businessId],
  );
  // Stored answers and claims of a day's writes, expiring over the day.
  await bulkInsert(
    db,
    `INSERT INTO idempotency_records (id, api_key_id, idempotency_key, fingerprint, response_status, response_body,
                                      response_content_type, created_at, expires_at)
     SELECT gen_random_uuid(), $1, 'key-' || i, 'fingerprint', 201, '{}', 'application/json', t - interval '1 day', t
       FROM generate_series(1, ${ROWS}) AS i, LATERAL (SELECT now() - interval '12 hours' + i * interval '1 day' / ${ROWS} AS t) AS stamp`,
    [apiKeyId],
  );
  await bulkInsert(
    db,
    `INSERT INTO idempotency_claims (api_key_id, idempotency_key, fingerprint, expires_at)
     SELECT $1, 'claim-' || i, 'fingerprint', now() - interval '12 hours' + i * interval '1 day' / ${ROWS} FROM generate_series(1, ${ROWS}) AS i`,
    [apiKeyId],
  );

  const [appointment] = await db.query<{ id: string; code: string; starts_at: Date; ends_at: Date }[]>(
    `SELECT id, code, starts_at, ends_at FROM appointments WHERE business_id = $1 AND status = 'CONFIRMED' ORDER BY starts_at OFFSET 1000 LIMIT 1`,
    [businessId],
  );
  // Moved to a later start: the appointment above is the previous one of its replacement.
  await db.queryWithGivenStamps(
    `UPDATE appointments SET rescheduled_from_id = $2
      WHERE id = (SELECT id FROM appointments WHERE business_id = $1 AND status = 'PENDING' ORDER BY starts_at OFFSET 2000 LIMIT 1)`,
    [businessId, appointment.id],
  );
  // One of the 50 clients the appointments rotate over.
  const [{ id: clientId }] = await db.query<{ id: string }[]>(`SELECT id FROM clients WHERE business_id = $1 AND phone = '+351910000007'`, [
    businessId,
  ]);
  const [client] = await db.query<{ id: string; phone: string; email: string }[]>(
    `SELECT id, phone, email FROM clients WHERE business_id = $1 AND phone IS NOT NULL ORDER BY updated_at OFFSET 5000 LIMIT 1`,
    [businessId],
  );
  const [delivery] = await db.query<{ id: string; notice_id: string }[]>(
    'SELECT id, notice_id FROM notice_deliveries WHERE business_id = $1 ORDER BY created_at DESC OFFSET 50 LIMIT 1',
    [businessId],
  );
  seeded = {
    businessId,
    staffId: staffIds[1],
    clientId,
    endpointId,
    apiKeyId,
    appointment: { id: appointment.id, code: appointment.code, startsAt: appointment.starts_at, endsAt: appointment.ends_at },
    client,
    notice: { id: delivery.notice_id },
    delivery: { id: delivery.id },
    idempotencyKey: `key-${ROWS / 2}`,
  };
  for (const table of TABLES) await db.query(`ANALYZE ${table}`);
}, 300_000);
// The suites share one database, one at a time (jest.config.mjs): the setup's outbox backlog, due
// deliveries and idempotency rows would be relayed, swept or counted by the suites after this one.
afterAll(async () => {
  // A notice's deliveries and their attempts go with it (ON DELETE CASCADE).
  await db.query('DELETE FROM notices WHERE business_id = ANY($1::uuid[])', [seededBusinessIds]);
  await db.query('DELETE FROM outbound_emails WHERE business_id = ANY($1::uuid[])', [seededBusinessIds]);
  await db.query('DELETE FROM idempotency_claims WHERE api_key_id = $1', [seeded.apiKeyId]);
  await db.query('DELETE FROM idempotency_records WHERE api_key_id = $1', [seeded.apiKeyId]);
  await context.close();
});

describe('each index kept for a read is planned by the statement that needs it', () => {
  const cases = Object.entries(PLANNED).flatMap(([index, uses]) => uses.map((use, i) => ({ index, use, n: i + 1 })));

  it.each(cases)('$index (statement $n)', async ({ index, use }) => {
    const { statement, params } = use(seeded);
    const planned = await indexesPlanned(statement.text, params);
    expect({ statement: statement.name, indexes: planned }).toEqual({
      statement: statement.name,
      indexes: expect.arrayContaining([index]),
    });
  });
});

describe('each index kept for a foreign key is planned by its check', () => {
  it.each(Object.entries(FOREIGN_KEYS).map(([index, key]) => ({ index, ...key })))(
    '$index: $table ($column)',
    async ({ index, table, column, referenced }) => {
      // The foreign key as the catalog has it, and the statement PostgreSQL runs for each referenced
      // row deleted (ri_triggers.c): the referencing rows deleted on CASCADE, else looked up and locked.
      const [key] = await db.query<{ action: string }[]>(
        `SELECT c.confdeltype AS action FROM pg_constraint c
          WHERE c.contype = 'f' AND c.conrelid = $1::regclass
            AND c.conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2)]`,
        [table, column],
      );
      expect(key).toBeDefined();
      const check =
        key.action === 'c'
          ? `DELETE FROM ONLY ${table} WHERE ${column} = $1`
          : `SELECT 1 FROM ONLY ${table} x WHERE ${column} = $1 FOR KEY SHARE OF x`;
      expect(await indexesPlanned(check, [referenced(seeded)])).toContain(index);
    },
  );
});

describe('each index kept for a rule enforces it', () => {
  it.each(Object.entries(RULES).map(([index, rule]) => ({ index, ...rule })))('$index: $rule', async ({ index, code, duplicate }) => {
    const [text, params] = duplicate(seeded);
    await expect(db.transaction((sql) => sql.query(text, params))).rejects.toMatchObject({ code, constraint: index });
  });

  it.each(Object.entries(PRIMARY_KEY_RULES).map(([table, rule]) => ({ table, rule })))(
    'the primary key of $table: $rule',
    async ({ table }) => {
      const [{ name }] = await db.query<{ name: string }[]>(
        `SELECT conname AS name FROM pg_constraint WHERE contype = 'p' AND conrelid = $1::regclass`,
        [table],
      );
      // A copy of a whole row: the table has no other unique index it could clash with first.
      await expect(db.transaction((sql) => sql.query(`INSERT INTO ${table} SELECT * FROM ${table} LIMIT 1`))).rejects.toMatchObject({
        code: '23505',
        constraint: name,
      });
    },
  );

  it('a redelivery and an idempotency claim name these keys as their conflict targets', () => {
    expect(REDELIVER.text).toMatch(/ON CONFLICT \(notice_id, endpoint_id\)/);
    expect(CLAIM.text).toMatch(/ON CONFLICT \(api_key_id, idempotency_key\)/);
  });
});

describe('the indexes of the tables a booking or a delivery writes', () => {
  it('are each planned by a statement, by a foreign key check, or kept for a rule; a new one needs its query', async () => {
    const indexes = await db.query<{ table: string; index: string; primary: boolean }[]>(
      `SELECT i.tablename AS table, i.indexname AS index,
              EXISTS (SELECT FROM pg_constraint c WHERE c.contype = 'p' AND c.conindid = (quote_ident(i.indexname))::regclass) AS primary
         FROM pg_indexes i WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[]) ORDER BY 1, 2`,
      [[...TABLES]],
    );
    const accounted = new Set([...Object.keys(PLANNED), ...Object.keys(FOREIGN_KEYS), ...Object.keys(RULES)]);
    const unaccounted = indexes.filter((i) => !i.primary && !accounted.has(i.index)).map((i) => `${i.table}.${i.index}`);
    expect(unaccounted).toEqual([]);
    // And no index is accounted for that the schema no longer has.
    const existing = new Set(indexes.map((i) => i.index));
    expect([...accounted].filter((index) => !existing.has(index))).toEqual([]);
    // Every table has its primary key.
    expect(new Set(indexes.filter((i) => i.primary).map((i) => i.table))).toEqual(new Set(TABLES));
  });
});
