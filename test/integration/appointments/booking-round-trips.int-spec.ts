import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import pg from 'pg';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService, type NewAppointment } from '#core/appointments/appointment-writes.service.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { IdempotencyService } from '#core/idempotency/idempotency.service.js';
import { declaredStatements } from '#database/statement.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * The round trips of a booking (docs/design-record.md#write-path), counted where they happen, on
 * the pg driver's Client.query: a statement sent while an earlier one on the same connection has
 * not answered yet travels in that one's round trip (the pool's connections are in pipeline mode).
 * A booking is three: BEGIN with the facts, the whole write, and COMMIT. An idempotent one is
 * four: BEGIN with the key's lock, its record's read and the savepoint; the facts; the write; the
 * stored response with COMMIT. Pinned exactly, so a change that adds one fails here.
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
 * What `work` sent to PostgreSQL on the booking's connection, one list of statements per round
 * trip: each statement's name, or a simple query's text. The relay's wake-up, sent after the
 * commit and awaited by nobody (on whichever connection the pool lends), is not the booking's.
 */
async function roundTrips<T>(work: () => Promise<T>): Promise<{ result: T; trips: string[][] }> {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
  const original = pg.Client.prototype.query;
  const trips: { connection: unknown; names: string[] }[] = [];
  const unanswered = new Map<unknown, number>();
  const query = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const name = nameOf(args[0]);
    if ((unanswered.get(this) ?? 0) > 0) trips.findLast((trip) => trip.connection === this)?.names.push(name);
    else trips.push({ connection: this, names: [name] });
    unanswered.set(this, (unanswered.get(this) ?? 0) + 1);
    const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
    // The statement layer hands node-postgres a callback (query-on.ts): the answer is counted before it runs.
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (...answer: unknown[]) => {
        answered();
        return (callback as (...a: unknown[]) => unknown)(...answer);
      };
    }
    const answer = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (answer instanceof Promise) answer.then(answered, answered);
    else if (typeof callback !== 'function') answered();
    return answer as never;
  });
  try {
    const result = await work();
    const booking = trips.find((trip) => trip.names.includes('insert_appointment'))?.connection;
    return {
      result,
      trips: trips.filter((trip) => trip.connection === booking && !trip.names.includes('wake_notice_relay')).map((trip) => trip.names),
    };
  } finally {
    query.mockRestore();
  }
}

/**
 * A declared statement by its declared name (a prepared one carries it, with what the layer adds
 * per connection, statement-names.ts; one planned on each call is sent unnamed, and found by its
 * text); a simple query (BEGIN, COMMIT) by its text.
 */
function nameOf(statement: unknown): string {
  if (typeof statement === 'string') return statement;
  const { name, text } = statement as { name?: string; text: string };
  if (name !== undefined) return name.replace(/_[0-9a-f]{8}_\d+$/, '');
  return declaredStatements().find((declared) => declared.text === text)?.name ?? '?';
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
  it('books a named member for an existing client in 3: BEGIN with the facts, the write, COMMIT', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const { trips } = await roundTrips(() =>
      bookings.book(ref(), {
        staffId: salon.staff.ana,
        serviceId: salon.services.cut,
        startAt: nextStart(),
        client: { id: salon.clients.joao },
      }),
    );
    expect(trips).toEqual([['BEGIN', 'booking_parties'], ['insert_appointment'], ['COMMIT']]);
  });

  it('books "any staff" in 3 as well: the candidates come with the facts, and a member taken meanwhile costs no savepoint', async () => {
    const bookings = context.app.get(AppointmentWritesService);
    const startAt = nextStart();
    const { result, trips } = await roundTrips(() =>
      bookings.book(ref(), { serviceId: salon.services.cut, startAt, client: { id: salon.clients.joao } }),
    );
    expect(trips).toEqual([['BEGIN', 'booking_parties'], ['insert_appointment'], ['COMMIT']]);
    expect([salon.staff.ana, salon.staff.rui]).toContain(result.staff.id);
  });

  it('books with an Idempotency-Key and a new client in 4: the lock, the record read and the savepoint go with BEGIN, the stored response with COMMIT', async () => {
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
      [
        'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan',
        'try_idempotency_lock',
        'take_live_idempotency_record',
        'savepoint_idempotent_write',
      ],
      ['booking_parties'],
      ['insert_appointment'],
      ['insert_idempotency_record', 'COMMIT'],
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
