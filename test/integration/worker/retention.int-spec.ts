import { jest } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { CLOCK, type Clock } from '#core/clock/clock.js';
import { OutboundEmailsRepository } from '#core/mail/outbound-emails.repository.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import { newId } from '#database/new-id.js';
import { EMAIL_ATTEMPTS } from '#jobs/processors/mail/email-retry.js';
import { EmailSweep } from '#jobs/processors/mail/email-sweep.js';
import { MaintenanceTasks } from '#jobs/processors/maintenance/maintenance-tasks.js';
import { EMAILS_QUEUE, MaintenanceJob } from '#jobs/queues.js';
import { eventually } from '../../utils/notice-receiver.js';
import { createEndpoint } from '../../utils/notice-setup.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * Retention (docs/design-record.md#d18): the worker's housekeeping deletes notices (with their
 * deliveries and attempts) and e-mails older than 30 days, in bounded batches, and keeps younger
 * ones; and the e-mail sweep hands the queue again an e-mail whose job Redis lost. The clock is
 * injected: "now" is a fixed instant, and rows are dated against it.
 */
const NOW = new Date(Date.now() - 60_000);
const clock: Clock = { now: () => NOW };
const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number): Date => new Date(NOW.getTime() - days * DAY_MS);

let context: TestContext;
let db: TestSql;
let salon: SeededBusiness;

beforeAll(async () => {
  context = await startTestContext({ app: 'worker', providers: [[CLOCK, clock]] });
  db = context.sql;
  salon = await seed({
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana' }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', email: 'joao@example.com', consent: true }],
    appointments: [{ ref: 'a1', staff: 'ana', service: 'cut', client: 'joao', startAt: '2036-01-07T09:00:00Z' }],
  });
});
afterAll(() => context.close());

/** A notice as a write records it, dated `createdAt` and already relayed. */
async function notice(createdAt: Date): Promise<string> {
  const id = newId();
  const payload = {
    id,
    type: 'client.created',
    createdAt: createdAt.toISOString(),
    business: salon.slug,
    data: { id: newId(), occurredAt: createdAt.toISOString() },
  };
  await db.query('INSERT INTO notices (id, business_id, type, payload, created_at, relayed_at) VALUES ($1, $2, $3, $4, $5, $5)', [
    id,
    salon.id,
    'client.created',
    JSON.stringify(payload),
    createdAt,
  ]);
  return id;
}

/** A delivery of the notice to the endpoint, with one failed attempt at `at`; returns the attempt's id. */
async function attempt(noticeId: string, endpointId: string, at: Date): Promise<string> {
  const deliveryId = newId();
  const attemptId = newId();
  await db.query(
    `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'FAILED', 1, $5, $5)`,
    [deliveryId, salon.id, noticeId, endpointId, at],
  );
  await db.query(
    `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error)
     VALUES ($1, $2, $3, 1, $4, 500, 12, 'HTTP 500')`,
    [attemptId, deliveryId, endpointId, at],
  );
  return attemptId;
}

/** An outbound e-mail about the seeded appointment, as the outbox holds it. */
async function email(fields: { createdAt: Date; relayed: boolean; sent: boolean; attempts?: number }): Promise<string> {
  const id = newId();
  await db.query(
    `INSERT INTO outbound_emails (id, business_id, appointment_id, kind, audience, recipient, sender_name, subject, body_text,
                                  calendar, calendar_method, created_at, relayed_at, sent_at, attempts)
     VALUES ($1, $2, $3, 'APPOINTMENT_BOOKED', 'CLIENT', 'joao@example.com', 'Salon Test', 'Booked', 'See you.',
             'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', 'REQUEST', $4, $5, $6, $7)`,
    [
      id,
      salon.id,
      salon.appointments.a1,
      fields.createdAt,
      fields.relayed ? fields.createdAt : null,
      fields.sent ? fields.createdAt : null,
      fields.attempts ?? (fields.sent ? 1 : 0),
    ],
  );
  return id;
}

const existing = async (table: string, ids: string[]): Promise<string[]> =>
  (await db.query<{ id: string }[]>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) ORDER BY id`, [ids])).map((row) => row.id);

describe('retention: 30 days', () => {
  it('deletes notices with their attempts, and e-mails, 31 days old; keeps those 29 days old', async () => {
    const endpoint = await createEndpoint(context.app, salon, 'http://127.0.0.1:9/hook', ['client.created']);
    const oldNotice = await notice(daysAgo(31));
    const youngNotice = await notice(daysAgo(29));
    const oldAttempt = await attempt(oldNotice, endpoint.id, daysAgo(31));
    const youngAttempt = await attempt(youngNotice, endpoint.id, daysAgo(29));
    const oldEmail = await email({ createdAt: daysAgo(31), relayed: true, sent: true });
    const youngEmail = await email({ createdAt: daysAgo(29), relayed: true, sent: true });

    const tasks = context.app.get(MaintenanceTasks, { strict: false });
    expect((await tasks.run(MaintenanceJob.PurgeNotices)).purged).toBeGreaterThanOrEqual(1);
    expect((await tasks.run(MaintenanceJob.PurgeEmails)).purged).toBeGreaterThanOrEqual(1);

    expect(await existing('notices', [oldNotice, youngNotice])).toEqual([youngNotice]);
    expect(await existing('delivery_attempts', [oldAttempt, youngAttempt])).toEqual([youngAttempt]);
    expect(await existing('outbound_emails', [oldEmail, youngEmail])).toEqual([youngEmail]);
  });

  it("deletes the console's sessions and sign-in links past their end, and keeps the live ones", async () => {
    const user = `user-${newId()}`;
    await db.query("INSERT INTO console_users (id, name, email) VALUES ($1, 'Owner', $2)", [user, `${user}@example.com`]);
    const row = async (table: string, expiresAt: Date) => {
      const id = `${table}-${newId()}`;
      if (table === 'console_sessions') {
        await db.query('INSERT INTO console_sessions (id, expires_at, token, user_id) VALUES ($1, $2, $1, $3)', [id, expiresAt, user]);
      } else {
        await db.query("INSERT INTO console_verifications (id, identifier, value, expires_at) VALUES ($1, $1, '{}', $2)", [id, expiresAt]);
      }
      return id;
    };
    const ended = [await row('console_sessions', daysAgo(1)), await row('console_verifications', daysAgo(1))];
    const live = [
      await row('console_sessions', new Date(NOW.getTime() + DAY_MS)),
      await row('console_verifications', new Date(NOW.getTime() + 60_000)),
    ];

    const tasks = context.app.get(MaintenanceTasks, { strict: false });
    expect((await tasks.run(MaintenanceJob.PurgeConsoleSignIns)).purged).toBeGreaterThanOrEqual(2);
    const left = async (ids: string[]) =>
      (
        await db.query<{ id: string }[]>(
          'SELECT id FROM console_sessions WHERE id = ANY($1) UNION ALL SELECT id FROM console_verifications WHERE id = ANY($1)',
          [ids],
        )
      ).map(({ id }) => id);
    expect(await left(ended)).toEqual([]);
    expect((await left(live)).sort()).toEqual([...live].sort());
  });

  it('deletes in bounded batches: one statement per batch until a batch comes back short', async () => {
    const old = await Promise.all(Array.from({ length: 25 }, () => notice(daysAgo(40))));
    const oldEmails = await Promise.all(Array.from({ length: 25 }, () => email({ createdAt: daysAgo(40), relayed: true, sent: true })));
    const execute = jest.spyOn(context.database, 'execute');
    try {
      const cutoff = daysAgo(30);
      expect(await context.app.get(NoticesRepository, { strict: false }).purgeCreatedBefore(cutoff, 10)).toBeGreaterThanOrEqual(25);
      expect(await context.app.get(OutboundEmailsRepository, { strict: false }).purgeCreatedBefore(cutoff, 10)).toBeGreaterThanOrEqual(25);
      const names = execute.mock.calls.map(([statement]) => statement.name);
      // 25 rows in batches of 10: at least 10, 10, 5 (rows other tests left past the cutoff may add one).
      expect(names.filter((name) => name === 'purge_notices').length).toBeGreaterThanOrEqual(3);
      expect(names.filter((name) => name === 'purge_outbound_emails').length).toBeGreaterThanOrEqual(3);
    } finally {
      execute.mockRestore();
    }
    expect(await existing('notices', old)).toEqual([]);
    expect(await existing('outbound_emails', oldEmails)).toEqual([]);
  });
});

describe('e-mail sweep', () => {
  it('hands over again an e-mail whose job Redis lost, and not one whose sends are used up', async () => {
    const queue = context.app.get<Queue>(getQueueToken(EMAILS_QUEUE));
    const lost = await email({ createdAt: daysAgo(0), relayed: true, sent: false });
    const exhausted = await email({ createdAt: daysAgo(0), relayed: true, sent: false, attempts: EMAIL_ATTEMPTS });
    // Neither has a job: as after a Redis restart without persistence.
    expect(await queue.getJob(lost)).toBeUndefined();

    expect(await context.app.get(EmailSweep, { strict: false }).sweepOnce()).toBeGreaterThanOrEqual(1);
    await eventually(
      async () => (await db.query<{ sent_at: Date | null }[]>('SELECT sent_at FROM outbound_emails WHERE id = $1', [lost]))[0].sent_at,
      15_000,
      'the lost e-mail to be sent',
    );
    expect(await queue.getJob(exhausted)).toBeUndefined();
    const [row] = await db.query<{ sent_at: Date | null; attempts: number }[]>(
      'SELECT sent_at, attempts FROM outbound_emails WHERE id = $1',
      [exhausted],
    );
    expect(row).toEqual({ sent_at: null, attempts: EMAIL_ATTEMPTS });
  });
});
