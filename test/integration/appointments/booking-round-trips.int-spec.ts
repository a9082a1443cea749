import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import pg from 'pg';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService, type NewAppointment } from '#core/appointments/appointment-writes.service.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { IdempotencyService } from '#core/idempotency/idempotency.service.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The round trips of a booking (docs/design-record.md#write-path), counted where they happen: every call of the pg
 * driver's Client.query is one request and one answer on the wire (a batch of several statements
 * included). A booking is at most four: BEGIN (with the idempotency lock when there is a key),
 * the facts, the whole write, and COMMIT (with the stored response). Pinned exactly, so a
 * change that adds one fails here.
 */
let context: TestContext;
let salon: SeededBusiness;
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));

beforeAll(async () => {
  context = await startTestContext({ imports: [AppointmentWritesModule, IdempotencyModule] });
  salon = await seed({
    timezone: 'UTC',
    notificationEmail: 'desk@round-trips.example',
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [
      { ref: 'ana', name: 'Ana', workingHours: EVERY_DAY },
      { ref: 'rui', name: 'Rui', workingHours: EVERY_DAY },
    ],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000001', email: 'joao@round-trips.example', consent: true }],
  });
});
afterAll(() => context.close());

/**
 * What `work` sent to PostgreSQL on the booking's connection, one entry per round trip: the
 * statement's name, or a simple query's text up to its first parenthesis. The relay's wake-up,
 * sent after the commit and awaited by nobody (on whichever connection the pool lends), is not
 * the booking's.
 */
async function roundTrips<T>(work: () => Promise<T>): Promise<{ result: T; trips: string[] }> {
  const query = jest.spyOn(pg.Client.prototype, 'query');
  try {
    const result = await work();
    const sent = query.mock.calls.map(([statement], i) => ({
      connection: query.mock.contexts[i],
      name:
        typeof statement === 'string' ? simpleQuery(statement) : ((statement as { name?: string }).name ?? '?').replace(SERVER_NAME, ''),
    }));
    const booking = sent.find((trip) => trip.name === 'insert_appointment')?.connection;
    return {
      result,
      trips: sent.filter((trip) => trip.connection === booking && trip.name !== 'wake_notice_relay').map((trip) => trip.name),
    };
  } finally {
    query.mockRestore();
  }
}

/** What the layer adds to a declared statement's name on a connection (statement-names.ts, and _b<n> in a batch). */
const SERVER_NAME = /_[0-9a-f]{8}_\d+(_b\d+)?$/;

/**
 * A simple query as the statements it runs, each up to its first parenthesis, an EXECUTE by the
 * declared name. A batch's PREPAREs are left out: a connection sends them once, with the first
 * batch that EXECUTEs the statement, whichever booking that is.
 */
function simpleQuery(text: string): string {
  return text
    .split(';\n')
    .filter((statement) => !statement.startsWith('PREPARE '))
    .map((statement) =>
      statement
        .replace(/\(.*$/s, '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^(EXECUTE \w+)/, (executed) => executed.replace(SERVER_NAME, '')),
    )
    .join('; ');
}

const ref = () => ({ businessId: salon.id, businessSlug: salon.slug });
let minutes = 0;
/** A start of its own for each booking. */
const nextStart = () => new Date(Date.UTC(2035, 4, 1, 8) + (minutes += 30) * 60_000).toISOString();

async function idempotently(booking: NewAppointment, apiKeyId: string) {
  const bookings = context.app.get(AppointmentWritesService);
  return context.app.get(IdempotencyService).execute({ apiKeyId, idempotencyKey: randomUUID(), fingerprint: randomUUID() }, async () => {
    const view = await bookings.book(ref(), booking);
    return { response: { status: 201, contentType: 'application/json', body: JSON.stringify(view) }, keepWrites: true };
  });
}

describe('the round trips of a booking', () => {
  it('books a named member for an existing client in 4: BEGIN, the facts, the write, COMMIT', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const { trips } = await roundTrips(() =>
      bookings.book(ref(), {
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: nextStart(),
        client: { id: salon.clients.joao },
      }),
    );
    expect(trips).toEqual(['BEGIN', 'booking_parties', 'insert_appointment', 'COMMIT']);
  });

  it('books "any staff" in 4 as well: the candidates come with the facts, and a member taken meanwhile costs no savepoint', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const startAt = nextStart();
    const { result, trips } = await roundTrips(() =>
      bookings.book(ref(), { serviceId: salon.services.cut, startAt, client: { id: salon.clients.joao } }),
    );
    expect(trips).toEqual(['BEGIN', 'booking_parties', 'insert_appointment', 'COMMIT']);
    expect([salon.staff.ana, salon.staff.rui]).toContain(result.staff.id);
  });

  it('books with an Idempotency-Key and a new client in 4: the lock opens the transaction, the response goes with COMMIT', async () => {
    const phone = `+35191${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const [{ id: apiKeyId }] = await context.sql.query<{ id: string }[]>('SELECT id FROM api_keys WHERE business_id = $1 LIMIT 1', [
      salon.id,
    ]);
    const { result, trips } = await roundTrips(() =>
      idempotently(
        { staffId: salon.staff.rui, serviceId: salon.services.cut, startAt: nextStart(), client: { name: 'Rita Faria', phone } },
        apiKeyId,
      ),
    );
    expect(trips).toEqual([
      'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE try_idempotency_lock; WITH expired AS; SAVEPOINT idempotent_write',
      'booking_parties',
      'insert_appointment',
      'EXECUTE insert_idempotency_record; COMMIT',
    ]);
    const view = JSON.parse(result.response.body) as { id: string; client: { id: string } };
    const sql = context.sql;
    expect(await sql.query('SELECT count(*)::int AS n FROM appointments WHERE id = $1', [view.id])).toEqual([{ n: 1 }]);
    expect(await sql.query('SELECT count(*)::int AS n FROM idempotency_records WHERE response_body = $1', [result.response.body])).toEqual([
      { n: 1 },
    ]);
    // The client's notice and the appointment's, with the facts its e-mails are written from; no e-mail yet.
    expect(
      await sql.query(`SELECT type, emails FROM notices WHERE payload->'data'->>'id' IN ($1, $2) ORDER BY type`, [view.id, view.client.id]),
    ).toEqual([
      { type: 'appointment.created', emails: { kind: 'APPOINTMENT_BOOKED', status: 'CONFIRMED' } },
      { type: 'client.created', emails: null },
    ]);
    expect(await sql.query('SELECT count(*)::int AS n FROM outbound_emails WHERE appointment_id = $1', [view.id])).toEqual([{ n: 0 }]);
  });
});
