import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PaymentsService } from '#core/payments/payments.service.js';
import type { Scope } from '#core/scopes/scope.js';
import { SchedulingClient } from '#sdk/index.js';
import { ALL_WEEK, KeyRing } from '../factories/booking-fixture.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { CompiledApi, contractCheckedFetch } from '../utils/compiled-api.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed } from '../utils/seed.js';
import { startTestContext, testSql, type TestContext, type TestSql } from '../utils/test-context.js';

/*
 * docs/design-record.md#d27: a partner that passes the largest `updatedAt` it saw as `updatedSince`
 * and follows `nextCursor` to the end sees every change, each in its final state, whatever the
 * number of writers and API instances and the difference of their clocks.
 *
 * Two API instances write at once: this process's, and a compiled one whose clock is 2.5 s behind.
 * A reader follows the documented loop over appointments, clients and payments meanwhile. Then,
 * round after round, one write is held inside its transaction (a row it needs is locked by the
 * test) while other writes are sent and the reader walks, before the lock is let go. In the end
 * the reader's copy must equal the database: every row, each in its last state.
 */

const SCOPES: Scope[] = ['appointments.read', 'appointments.write', 'clients.read', 'clients.write', 'payments.read'];
const KEYS = 9;
const WRITERS = 4;
const OPS_PER_WRITER = 28;
const HELD_ROUNDS = 3;
const CLOCK_SKEW_MS = -2500;

interface Instance {
  name: string;
  call(method: 'GET' | 'POST' | 'PATCH', path: string, key: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

interface Synced {
  id: string;
  updatedAt: string;
  status?: string;
  metadata?: Record<string, string>;
  name?: string;
}

type ListName = 'appointments' | 'clients' | 'payments';
const LISTS: ListName[] = ['appointments', 'clients', 'payments'];

let local: E2eApi;
let skewed: CompiledApi;
let admin: TestContext;
let db: TestSql;
const violations: string[] = [];

beforeAll(async () => {
  local = await E2eApi.start();
  db = testSql(local.app);
  admin = await startTestContext({ app: 'admin' });
  skewed = await CompiledApi.start('sync-skewed', {
    nodeArgs: ['--import', join(REPO_ROOT, 'test', 'utils', 'skewed-clock.mjs')],
    env: { CLOCK_SKEW_MS: String(CLOCK_SKEW_MS) },
  });
}, 180_000);
afterAll(async () => {
  await Promise.all([local?.close(), skewed?.stop(), admin?.close()]);
});

function instances(checkedFetch: (request: Request) => Promise<Response>): Instance[] {
  return [
    {
      name: 'local',
      call: async (method, path, key, body) => {
        const headers: Record<string, string> = method === 'GET' ? {} : { 'Idempotency-Key': randomUUID() };
        const res = await local.call(method, path, { key, body, headers });
        return { status: res.status, body: res.body };
      },
    },
    {
      name: 'skewed',
      call: async (method, path, key, body) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
        if (method !== 'GET') Object.assign(headers, { 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' });
        const res = await checkedFetch(
          new Request(`${skewed.origin}/v1/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
        );
        const text = await res.text();
        return { status: res.status, body: text === '' ? null : JSON.parse(text) };
      },
    },
  ];
}

/**
 * The documented loop (docs/partners.md), as the SDK's sync() runs it: updatedSince = the largest
 * updatedAt seen, then nextCursor to the end. Through the skewed instance (a reader's own clock
 * plays no part), one SDK client per key in turn.
 */
class Reader {
  readonly seen: Record<ListName, Map<string, Synced>> = { appointments: new Map(), clients: new Map(), payments: new Map() };
  private readonly since: Record<ListName, string | null> = { appointments: null, clients: null, payments: null };
  private turn = 0;

  constructor(private readonly sdks: SchedulingClient[]) {}

  async walk(list: ListName): Promise<void> {
    const sdk = this.sdks[this.turn++ % this.sdks.length];
    const onChange = (record: Synced) => void this.seen[list].set(record.id, record);
    const { since } = await sdk[list].sync({ since: this.since[list], onChange });
    this.since[list] = since;
  }

  async walkAll(): Promise<void> {
    for (const list of LISTS) await this.walk(list);
  }
}

/** A lock held by a transaction of the test's until release(): what holds a writer inside its own transaction. */
async function holdLock(sql: string, params: unknown[]): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let locked!: () => void;
  const isLocked = new Promise<void>((done) => (locked = done));
  const ended = db.transaction(async (tx) => {
    await tx.query(sql, params);
    locked();
    await released;
  });
  await Promise.race([isLocked, ended]);
  return {
    release: async () => {
      release();
      await ended;
    },
  };
}

/** Backends of this database waiting for a lock now. */
async function waitingForLocks(): Promise<number> {
  const [row] = await db.query<{ n: string }[]>(
    `SELECT count(DISTINCT l.pid) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE NOT l.granted AND a.datname = current_database()`,
  );
  return Number(row.n);
}

/** Polls until the condition holds; a test that never gets there fails on Jest's time-out, not on a measured time. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((done) => setTimeout(done, 20));
}

/** Tracks which writes have settled, so the test can wait until each is done or blocked. */
function tracked<T>(promise: Promise<T>, settled: { count: number }): Promise<T> {
  return promise.finally(() => (settled.count += 1));
}

describe('incremental sync under concurrent writers (docs/design-record.md#d27)', () => {
  it('sees every change of appointments, clients and payments in its final state: two instances, one clock 2.5 s behind, held transactions', async () => {
    const tag = randomUUID().slice(0, 8);
    const digits = () => String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
    const salon = await seed({
      slug: `sync-${tag}`,
      timezone: 'Europe/Lisbon',
      members: [{ ref: 'owner', name: 'Owner', email: `owner@sync-${tag}.example`, role: 'OWNER' }],
      services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
      staff: [
        { ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK },
        { ref: 'rui', name: 'Rui Alves', workingHours: ALL_WEEK },
      ],
      clients: [{ ref: 'joao', name: 'João Silva', phone: `+35191${digits()}` }],
      keys: Array.from({ length: KEYS }, (_, i) => ({ ref: `k${i}`, member: 'owner', name: `Sync ${i}`, scopes: SCOPES })),
    });
    // Keys in turn: 9 keys × 120 a minute is more than the test sends.
    const keys = new KeyRing(Array.from({ length: KEYS }, (_, i) => salon.keys[`k${i}`].key));
    const checkedFetch = contractCheckedFetch(violations);
    const [localApi, skewedApi] = instances(checkedFetch);
    const apis = [localApi, skewedApi];
    const staff = [salon.staff.ana, salon.staff.rui];
    const payments = admin.app.get(PaymentsService);

    // Every booking and reschedule takes a start of its own: 24 half hours a day from 08:00 (UTC = Lisbon in January).
    let slot = 0;
    const nextStart = () => {
      const n = slot++;
      return new Date(Date.UTC(2036, 0, 5 + Math.floor(n / 24), 8, (n % 24) * 30)).toISOString();
    };
    let phones = 0;
    const newPhone = () => `+35193${String(((Date.now() % 10_000) * 1000 + phones++) % 10_000_000).padStart(7, '0')}`;
    const active: string[] = [];
    const anyAppointment: string[] = [];
    const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)];
    const refusals: string[] = [];

    // A booking answers 201, a reschedule 200 with the new appointment.
    const remember = (res: { status: number; body: { id: string } }) => {
      if (res.status === 201 || res.status === 200) {
        active.push(res.body.id);
        anyAppointment.push(res.body.id);
      }
    };
    const expectOneOf = (what: string, status: number, allowed: number[]) => {
      if (!allowed.includes(status)) refusals.push(`${what}: ${status}`);
    };

    const bookFormA = async (api: Instance, staffId = pick(staff)) => {
      const res = await api.call('POST', '/appointments', keys.next(), {
        staffId,
        serviceId: salon.services.cut,
        startAt: nextStart(),
        client: { id: salon.clients.joao },
        notifyClient: false,
      });
      expectOneOf('book A', res.status, [201]);
      remember(res);
    };
    const bookFormB = async (api: Instance, staffId = pick(staff)) => {
      const res = await api.call('POST', '/appointments', keys.next(), {
        staffId,
        serviceId: salon.services.cut,
        startAt: nextStart(),
        client: { name: `Walk-in ${phones}`, phone: newPhone() },
        notifyClient: false,
      });
      expectOneOf('book B', res.status, [201]);
      remember(res);
    };
    const createClient = async (api: Instance) => {
      const res = await api.call('POST', '/clients', keys.next(), { name: `Client ${phones}`, phone: newPhone(), consent: true });
      expectOneOf('client', res.status, [201]);
    };
    const reschedule = async (api: Instance) => {
      const id = active.shift();
      if (!id) return;
      const res = await api.call('POST', `/appointments/${id}/reschedule`, keys.next(), { startAt: nextStart(), notifyClient: false });
      // Another writer may have cancelled it meanwhile.
      expectOneOf('reschedule', res.status, [200, 409]);
      remember(res);
    };
    const cancel = async (api: Instance) => {
      const id = active.shift();
      if (!id) return;
      const res = await api.call('POST', `/appointments/${id}/cancel`, keys.next(), { reason: 'The client asked', notifyClient: false });
      expectOneOf('cancel', res.status, [200, 409]);
    };
    const changeMetadata = async (api: Instance) => {
      const id = pick(anyAppointment);
      if (!id) return;
      const res = await api.call('PATCH', `/appointments/${id}`, keys.next(), { metadata: { touch: randomUUID() } });
      expectOneOf('metadata', res.status, [200]);
    };
    const recordPayment = async (appointmentId = pick(anyAppointment)) => {
      if (!appointmentId) return;
      await payments.record({ businessSlug: salon.slug, appointmentId, amountCents: 2500, method: 'CARD' });
    };

    const reader = new Reader(
      Array.from(
        { length: KEYS },
        (_, i) => new SchedulingClient({ baseUrl: skewed.origin, apiKey: salon.keys[`k${i}`].key, fetch: checkedFetch }),
      ),
    );

    // 1. Writers on both instances, the reader walking meanwhile.
    const ops = [bookFormA, bookFormB, createClient, changeMetadata, reschedule, bookFormA, cancel, bookFormB];
    let writersDone = false;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < OPS_PER_WRITER; i += 1) {
        const api = apis[(w + i) % 2];
        if ((w + i) % 5 === 0) await recordPayment();
        else await ops[(w * 3 + i) % ops.length](api);
      }
    });
    const reading = (async () => {
      for (let walks = 0; !writersDone && walks < 60; walks += 1) await reader.walkAll();
    })();
    await Promise.all(writers).finally(() => (writersDone = true));
    await reading;

    // 2. Held writes: each round holds one write of each kind inside its transaction while others commit and the reader walks.
    for (let round = 0; round < HELD_ROUNDS; round += 1) {
      // 2a. A booking (form B: a new client and its appointment) waits on its staff member's row.
      const staffLock = await holdLock('SELECT id FROM staff WHERE id = $1 FOR UPDATE', [salon.staff.rui]);
      const held = bookFormB(apis[round % 2], salon.staff.rui);
      await until(async () => (await waitingForLocks()) >= 1);
      const settled = { count: 0 };
      const others = [
        tracked(bookFormB(apis[(round + 1) % 2], salon.staff.ana), settled),
        tracked(createClient(apis[(round + 1) % 2]), settled),
        tracked(changeMetadata(apis[round % 2]), settled),
      ];
      // Each other write has either committed or is waiting behind the held one.
      await until(async () => settled.count + (await waitingForLocks()) - 1 >= others.length);
      await reader.walkAll();
      await staffLock.release();
      await Promise.all([held, ...others]);

      // 2b. A payment waits on its appointment's row.
      const target = anyAppointment[round];
      const appointmentLock = await holdLock('SELECT id FROM appointments WHERE id = $1 FOR UPDATE', [target]);
      const heldPayment = recordPayment(target);
      await until(async () => (await waitingForLocks()) >= 1);
      const paid = { count: 0 };
      const otherPayments = [tracked(recordPayment(anyAppointment[round + 10]), paid), tracked(createClient(apis[round % 2]), paid)];
      await until(async () => paid.count + (await waitingForLocks()) - 1 >= otherPayments.length);
      await reader.walkAll();
      await appointmentLock.release();
      await Promise.all([heldPayment, ...otherPayments]);
    }

    // 3. One last walk, then the reader's copy against the database.
    await reader.walkAll();
    expect(refusals).toEqual([]);
    expect(violations).toEqual([]);

    const truth: Record<ListName, Synced[]> = {
      appointments: (
        await db.query<{ id: string; status: string; metadata: Record<string, string>; updated_at: Date }[]>(
          'SELECT id, status, metadata, updated_at FROM appointments WHERE business_id = $1',
          [salon.id],
        )
      ).map((row) => ({ id: row.id, status: row.status, metadata: row.metadata, updatedAt: row.updated_at.toISOString() })),
      clients: (
        await db.query<{ id: string; name: string; updated_at: Date }[]>(
          'SELECT id, name, updated_at FROM clients WHERE business_id = $1',
          [salon.id],
        )
      ).map((row) => ({ id: row.id, name: row.name, updatedAt: row.updated_at.toISOString() })),
      payments: (
        await db.query<{ id: string; status: string; updated_at: Date }[]>(
          'SELECT id, status, updated_at FROM payments WHERE business_id = $1',
          [salon.id],
        )
      ).map((row) => ({ id: row.id, status: row.status, updatedAt: row.updated_at.toISOString() })),
    };
    // The test wrote enough of each to mean something.
    expect(truth.appointments.length).toBeGreaterThan(40);
    expect(truth.clients.length).toBeGreaterThan(25);
    expect(truth.payments.length).toBeGreaterThan(15);

    const outcome = LISTS.map((list) => {
      const copy = reader.seen[list];
      const unseen = truth[list].filter((row) => !copy.has(row.id)).map((row) => row.id);
      const stale = truth[list]
        .filter((row) => {
          const seen = copy.get(row.id);
          return (
            seen !== undefined &&
            (seen.updatedAt !== row.updatedAt ||
              (row.status !== undefined && seen.status !== row.status) ||
              (row.metadata !== undefined && JSON.stringify(seen.metadata) !== JSON.stringify(row.metadata)))
          );
        })
        .map((row) => row.id);
      return { list, rows: truth[list].length, unseen, stale };
    });
    expect(outcome).toEqual(outcome.map(({ list, rows }) => ({ list, rows, unseen: [], stale: [] })));
  }, 600_000);
});
