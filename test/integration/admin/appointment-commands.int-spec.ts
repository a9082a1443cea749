import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadBookingFixture, type BookingFixture } from '../../factories/booking-fixture.js';
import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { testConfig } from '../../utils/test-config.js';

const config = testConfig();
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, config);

describe('admin appointment confirm | complete | no-show', () => {
  const db = new pg.Client({ connectionString: config.DATABASE_URL });
  let salon: BookingFixture;
  const notices = async (id: string) =>
    (await db.query<{ type: string }>(`SELECT type FROM notices WHERE payload->'data'->>'id' = $1`, [id])).rows.map((r) => r.type);
  const status = async (id: string) =>
    (await db.query<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [id])).rows[0].status;

  beforeAll(async () => {
    await db.connect();
    const at = (hour: number) => `2035-03-05T${String(hour).padStart(2, '0')}:00:00Z`;
    salon = await loadBookingFixture({
      keys: 1,
      appointments: [
        { ref: 'pending', staff: 'ana', service: 'cut', client: 'joao', startAt: at(9), status: 'PENDING' },
        { ref: 'pending2', staff: 'ana', service: 'cut', client: 'joao', startAt: at(10), status: 'PENDING' },
        { ref: 'confirmed', staff: 'ana', service: 'cut', client: 'joao', startAt: at(11), status: 'CONFIRMED' },
        { ref: 'cancelled', staff: 'ana', service: 'cut', client: 'joao', startAt: at(12), status: 'CANCELLED' },
      ],
    });
  });
  afterAll(() => db.end());

  it('confirms a PENDING appointment, prints it and records appointment.confirmed', async () => {
    const id = salon.appointments.pending;
    const run = await admin('appointment', 'confirm', '--business', salon.slug, '--id', id);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ id, business: salon.slug, status: 'CONFIRMED', scheduledAt: '2035-03-05T09:00:00.000Z' });
    expect(await status(id)).toBe('CONFIRMED');
    expect(await notices(id)).toEqual(['appointment.confirmed']);

    const again = await admin('appointment', 'confirm', '--business', salon.slug, '--id', id);
    expect(again.code).toBe(1);
    expect(again.error.code).toBe('APPOINTMENT_NOT_ACTIVE');
    expect(again.error.detail).toMatch(/CONFIRMED.*PENDING/);
    expect(await notices(id)).toEqual(['appointment.confirmed']);
  });

  it('completes a CONFIRMED appointment and marks a PENDING one as a no-show, without notices', async () => {
    const completed = await admin('appointment', 'complete', '--business', salon.slug, '--id', salon.appointments.confirmed);
    expect(completed.code).toBe(0);
    expect(completed.json.status).toBe('COMPLETED');
    const noShow = await admin('appointment', 'no-show', '--business', salon.slug, '--id', salon.appointments.pending2);
    expect(noShow.code).toBe(0);
    expect(noShow.json.status).toBe('NO_SHOW');
    expect(await notices(salon.appointments.confirmed)).toEqual([]);
    expect(await notices(salon.appointments.pending2)).toEqual([]);
  });

  it('refuses a transition the status does not allow, an unknown appointment or business, and a malformed id', async () => {
    const cancelled = await admin('appointment', 'complete', '--business', salon.slug, '--id', salon.appointments.cancelled);
    expect([cancelled.code, cancelled.error.code]).toEqual([1, 'APPOINTMENT_NOT_ACTIVE']);
    expect(await status(salon.appointments.cancelled)).toBe('CANCELLED');
    const unknown = await admin('appointment', 'no-show', '--business', salon.slug, '--id', randomUUID());
    expect([unknown.code, unknown.error.code]).toEqual([1, 'NOT_FOUND']);
    const otherBusiness = await admin('appointment', 'confirm', '--business', 'no-such-business', '--id', salon.appointments.cancelled);
    expect([otherBusiness.code, otherBusiness.error.code]).toEqual([1, 'NOT_FOUND']);
    const malformed = await admin('appointment', 'confirm', '--business', salon.slug, '--id', '42');
    expect([malformed.code, malformed.error.code]).toEqual([2, 'USAGE']);
    const noCommand = await admin('appointment', 'reopen', '--business', salon.slug, '--id', randomUUID());
    expect(noCommand.code).toBe(2);
  });
});
