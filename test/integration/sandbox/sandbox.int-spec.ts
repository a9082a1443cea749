import type { INestApplicationContext } from '@nestjs/common';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { SCOPES } from '#core/scopes/scope.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { ALL_WEEK } from '../../factories/booking-fixture.js';
import { runAdminCommand } from '../../utils/admin-runner.js';
import { seed, seedMore, seedNotice, type SeededBusiness } from '../../utils/seed.js';
import { startTestContext, testSql, type TestContext, type TestSql } from '../../utils/test-context.js';

/**
 * Test mode's sandbox (docs/design-record.md#d19): `sandbox create` copies exactly the catalogue
 * and settings, `sandbox reset` puts the sandbox back to a fresh copy (its own data gone, its test
 * keys kept), and neither touches a live row.
 */
let context: TestContext;
let app: INestApplicationContext;
let db: TestSql;

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
  app = context.app;
  db = testSql(app);
});
afterAll(() => context.close());

const admin = async (...argv: string[]) => runAdminCommand(argv, context.config);

/** The catalogue of a business, described without ids (staff and services by name), in a fixed order. */
async function catalogue(businessId: string) {
  const q = (text: string) => db.query<Record<string, unknown>[]>(text, [businessId]);
  return {
    business: (
      await q(`SELECT name, timezone, country, currency, locale, plan, auto_confirm, notification_email, step_min
                 FROM businesses WHERE id = $1`)
    )[0],
    services: await q(`SELECT name, duration_min, price_cents, category, active, created_at, updated_at
                         FROM services WHERE business_id = $1 ORDER BY name`),
    staff: await q('SELECT name, active, created_at, updated_at FROM staff WHERE business_id = $1 ORDER BY name'),
    staffServices: await q(`SELECT st.name AS staff, sv.name AS service FROM staff_services x
                              JOIN staff st ON st.id = x.staff_id JOIN services sv ON sv.id = x.service_id
                             WHERE x.business_id = $1 ORDER BY 1, 2`),
    hours: await q(`SELECT st.name AS staff, h.weekday, h.start_time, h.end_time FROM staff_working_hours h
                      JOIN staff st ON st.id = h.staff_id WHERE h.business_id = $1 ORDER BY 1, 2, 3`),
    blocks: await q(`SELECT st.name AS staff, b.starts_at, b.ends_at FROM staff_time_blocks b
                       JOIN staff st ON st.id = b.staff_id WHERE b.business_id = $1 ORDER BY 1, 2`),
  };
}

const OWN_DATA = ['clients', 'appointments', 'payments', 'sales', 'notices', 'webhook_endpoints', 'outbound_emails'];

/** Row counts of the business's rows in every table that has them. */
async function counts(businessId: string): Promise<Record<string, number>> {
  const tables = await db.query<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'business_id' ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await db.query<{ n: string }[]>(`SELECT count(*) AS n FROM "${table}" WHERE business_id = $1`, [businessId]);
    out[table] = Number(row.n);
  }
  return out;
}

async function liveSalon(): Promise<SeededBusiness> {
  return seed({
    name: 'Salão Sandbox',
    stepMin: 20,
    autoConfirm: false,
    notificationEmail: 'desk@salon.example',
    services: [
      { ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500, category: 'Cabelo' },
      { ref: 'color', name: 'Coloração', durationMin: 60, priceCents: 4000 },
      { ref: 'retired', name: 'Permanente', durationMin: 90, priceCents: 6000, active: false },
    ],
    staff: [
      {
        ref: 'ana',
        name: 'Ana',
        workingHours: ALL_WEEK,
        blocks: [{ startAt: '2040-01-02T10:00:00Z', endAt: '2040-01-02T11:00:00Z' }],
      },
      { ref: 'rui', name: 'Rui', services: ['cut', 'color'], workingHours: [{ weekday: 1, start: '09:00', end: '13:00' }] },
      { ref: 'bea', name: 'Bea', active: false },
    ],
    clients: [{ ref: 'joao', name: 'João Live', phone: '+351911000001', email: 'joao.live@example.com', consent: true }],
    appointments: [{ ref: 'a1', staff: 'ana', service: 'cut', client: 'joao', startAt: '2040-01-03T10:00:00Z' }],
    payments: [
      {
        ref: 'p1',
        appointment: 'a1',
        channel: 'IN_PERSON',
        method: 'CARD',
        status: 'PAID',
        amountCents: 2500,
        paidAt: '2026-01-01T10:00:00Z',
      },
    ],
    sales: [
      {
        ref: 's1',
        client: 'joao',
        status: 'COMPLETED',
        items: [{ type: 'SERVICE', name: 'Corte', service: 'cut', quantity: 1, unitPriceCents: 2500 }],
      },
    ],
    webhooks: [{ ref: 'hook', url: 'http://127.0.0.1:9/live', events: ['appointment.created'] }],
  });
}

describe('admin sandbox create', () => {
  it('copies exactly the catalogue and settings, and nothing else', async () => {
    const live = await liveSalon();
    await seedNotice(live, 'client.created');
    const before = await counts(live.id);

    const run = await admin('sandbox', 'create', '--business', live.slug);
    expect(run.code).toBe(0);
    const sandboxId: string = run.json.sandbox.id;
    expect(run.json.business).toBe(live.slug);
    expect(run.json.sandbox.slug).toBe(`${live.slug}.test`);
    expect(run.json.copied.counts).toEqual({ services: 3, staff: 3, staffServices: 2, workingHours: 8, timeBlocks: 1 });
    // Every live staff member and service has its own copy, under a new id.
    expect(Object.keys(run.json.copied.staff).sort()).toEqual(Object.values(live.staff).sort());
    expect(Object.keys(run.json.copied.services).sort()).toEqual(Object.values(live.services).sort());
    for (const copy of [...Object.values(run.json.copied.staff), ...Object.values(run.json.copied.services)] as string[]) {
      expect([...Object.values(live.staff), ...Object.values(live.services)]).not.toContain(copy);
    }

    expect(await catalogue(sandboxId)).toEqual(await catalogue(live.id));
    const sandboxCounts = await counts(sandboxId);
    for (const table of OWN_DATA) expect({ table, rows: sandboxCounts[table] }).toEqual({ table, rows: 0 });
    // Only the operator's change is written to the live business: its audit entry (docs/design-record.md#d29).
    expect(await counts(live.id)).toEqual({ ...before, console_audit_entries: before.console_audit_entries + 1 });

    // The row is linked to the live one, and its slug is no live business's.
    const [row] = await db.query<{ live_business_id: string; slug: string }[]>(
      'SELECT live_business_id, slug FROM businesses WHERE id = $1',
      [sandboxId],
    );
    expect(row).toEqual({ live_business_id: live.id, slug: `${live.slug}.test` });
    const refused = await admin('business', 'plan', '--business', `${live.slug}.test`, '--plan', 'FREE');
    expect(refused.error.code).toBe('NOT_FOUND');

    const again = await admin('sandbox', 'create', '--business', live.slug);
    expect(again.code).toBe(1);
    expect(again.error.code).toBe('VALIDATION_FAILED');
    expect(again.error.errors?.[0].message).toContain('already has a sandbox');
  });

  it('refuses an unknown business, and reset or emails of a business without a sandbox', async () => {
    expect((await admin('sandbox', 'create', '--business', 'no-such-salon')).error.code).toBe('NOT_FOUND');
    const bare = await seed({});
    for (const command of ['reset', 'emails']) {
      const run = await admin('sandbox', command, '--business', bare.slug);
      expect(run.error.code).toBe('NOT_FOUND');
      expect(run.error.detail).toContain('has no sandbox');
    }
  });
});

describe('admin key create --test', () => {
  it('makes the sandbox when missing and an rk_test_ key on it; revoke takes its prefix', async () => {
    const live = await seed({ services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }] });
    const owner = live.ownerEmail!;
    const run = await admin(
      'key',
      'create',
      '--business',
      live.slug,
      '--member',
      owner,
      '--name',
      'Sandbox',
      '--scopes',
      'services.read',
      '--test',
    );
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ mode: 'test', sandboxCreated: true, business: live.slug });
    expect(run.json.key).toMatch(/^rk_test_[0-9A-Za-z]{38}$/);
    const second = await admin(
      'key',
      'create',
      '--business',
      live.slug,
      '--member',
      owner,
      '--name',
      'Second',
      '--scopes',
      'services.read',
      '--test',
    );
    expect(second.json).toMatchObject({ mode: 'test', sandboxCreated: false });

    const keys = app.get(ApiKeysService);
    const found = await keys.authenticate(run.json.key);
    const [sandbox] = await db.query<{ id: string }[]>('SELECT id FROM businesses WHERE live_business_id = $1', [live.id]);
    expect(found).toMatchObject({ mode: 'test', businessId: sandbox.id, businessSlug: live.slug, plan: 'TEAM' });
    expect(await keys.authenticate(live.keys.owner.key)).toMatchObject({ mode: 'live', businessId: live.id });

    const revoked = await admin('key', 'revoke', '--business', live.slug, '--prefix', run.json.prefix);
    expect(revoked.json).toEqual({ business: live.slug, id: run.json.id, prefix: run.json.prefix, revoked: 1 });
    const [row] = await db.query<{ revoked_at: Date | null }[]>('SELECT revoked_at FROM api_keys WHERE id = $1', [run.json.id]);
    expect(row.revoked_at).not.toBeNull();
  });
});

describe('at the same moment', () => {
  it('three test keys made at once make one sandbox, which all three reach', async () => {
    const live = await seed({ services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }] });
    const runs = await Promise.all(
      [1, 2, 3].map((n) =>
        admin(
          'key',
          'create',
          '--business',
          live.slug,
          '--member',
          live.ownerEmail!,
          '--name',
          `T${n}`,
          '--scopes',
          'services.read',
          '--test',
        ),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    expect(runs.filter((run) => run.json.sandboxCreated === true)).toHaveLength(1);
    const sandboxes = await db.query<{ id: string }[]>('SELECT id FROM businesses WHERE live_business_id = $1', [live.id]);
    expect(sandboxes).toHaveLength(1);
    for (const run of runs) {
      expect(await app.get(ApiKeysService).authenticate(run.json.key)).toMatchObject({ mode: 'test', businessId: sandboxes[0].id });
    }
    expect(await catalogue(sandboxes[0].id)).toEqual(await catalogue(live.id));
  });
});

describe('admin sandbox reset', () => {
  it('puts the sandbox back to the live catalogue, removing its own data and keeping its test keys; live rows untouched', async () => {
    const live = await liveSalon();
    const created = await admin(
      'key',
      'create',
      '--business',
      live.slug,
      '--member',
      live.ownerEmail!,
      '--name',
      'T',
      '--scopes',
      SCOPES.join(','),
      '--test',
    );
    const [{ id: sandboxId }] = await db.query<{ id: string }[]>('SELECT id FROM businesses WHERE live_business_id = $1', [live.id]);

    // The sandbox gets data of its own, and its catalogue drifts from the live one.
    const staffCopies: Record<string, string> = {};
    const serviceCopies: Record<string, string> = {};
    for (const [ref, id] of Object.entries(live.staff)) {
      const [row] = await db.query<{ id: string }[]>(
        'SELECT s.id FROM staff s JOIN staff l ON l.name = s.name WHERE s.business_id = $1 AND l.id = $2',
        [sandboxId, id],
      );
      staffCopies[ref] = row.id;
    }
    for (const [ref, id] of Object.entries(live.services)) {
      const [row] = await db.query<{ id: string }[]>(
        'SELECT s.id FROM services s JOIN services l ON l.name = s.name WHERE s.business_id = $1 AND l.id = $2',
        [sandboxId, id],
      );
      serviceCopies[ref] = row.id;
    }
    const sandboxRefs: SeededBusiness = {
      id: sandboxId,
      slug: live.slug,
      ownerEmail: null,
      members: {},
      staff: staffCopies,
      services: serviceCopies,
      clients: {},
      appointments: {},
      payments: {},
      sales: {},
      keys: {},
      webhooks: {},
    };
    await seedMore(sandboxRefs, {
      services: [{ ref: 'extra', name: 'Sandbox only', durationMin: 15, priceCents: 100 }],
      clients: [{ ref: 'c', name: 'Test Client', email: 'test.client@example.com' }],
      appointments: [{ ref: 'a', staff: 'ana', service: 'cut', client: 'c', startAt: '2041-01-03T10:00:00Z' }],
      payments: [
        {
          ref: 'p',
          appointment: 'a',
          channel: 'ONLINE',
          method: 'CARD',
          status: 'PAID',
          amountCents: 2500,
          paidAt: '2026-01-01T10:00:00Z',
        },
      ],
      sales: [{ ref: 's', client: 'c', appointment: 'a', status: 'COMPLETED', items: [] }],
    });
    await seedNotice({ id: sandboxId, slug: live.slug }, 'appointment.created');
    await app
      .get(WebhookEndpointsService)
      .create(sandboxId, { url: 'http://127.0.0.1:9/sandbox', events: ['appointment.created'] }, live.id, CURRENT_API_VERSION);
    const dirty = await counts(sandboxId);
    for (const table of ['clients', 'appointments', 'payments', 'sales', 'notices', 'webhook_endpoints'])
      expect(dirty[table]).toBeGreaterThan(0);

    // And the live catalogue moves on: the reset copies it as it is now.
    await seedMore(live, { services: [{ ref: 'new', name: 'Novo', durationMin: 45, priceCents: 3000 }] });
    expect((await admin('business', 'settings', '--business', live.slug, '--step-min', '30')).code).toBe(0);
    const liveBefore = await counts(live.id);

    const run = await admin('sandbox', 'reset', '--business', live.slug);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ business: live.slug, sandbox: { id: sandboxId, slug: `${live.slug}.test` }, testKeys: 1 });
    expect(await catalogue(sandboxId)).toEqual(await catalogue(live.id));
    expect((await catalogue(sandboxId)).business).toMatchObject({ step_min: 30 });
    const after = await counts(sandboxId);
    for (const table of OWN_DATA) expect({ table, rows: after[table] }).toEqual({ table, rows: 0 });
    // Only the operator's change is written to the live business: its audit entry (docs/design-record.md#d29).
    expect(await counts(live.id)).toEqual({ ...liveBefore, console_audit_entries: liveBefore.console_audit_entries + 1 });

    // The test key still reaches the sandbox, under the same id.
    expect(await app.get(ApiKeysService).authenticate(created.json.key)).toMatchObject({ mode: 'test', businessId: sandboxId });
  });
});

describe('the fixture format: "sandbox" and test keys', () => {
  it('makes the sandbox after the catalogue, maps its copies by ref, and loads test keys on it', async () => {
    const live = await seed({
      services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
      staff: [{ ref: 'ana', name: 'Ana', services: ['cut'], workingHours: ALL_WEEK }],
      keys: [
        { ref: 'live', member: 'owner', name: 'Live', scopes: ['services.read'] },
        { ref: 'test', member: 'owner', name: 'Test', scopes: ['services.read'], mode: 'test' },
      ],
      members: [{ ref: 'owner', name: 'Owner', email: 'owner@fixture-sandbox.example', role: 'OWNER' }],
    });
    expect(live.keys.live.key).toMatch(/^rk_live_/);
    expect(live.keys.test.key).toMatch(/^rk_test_/);
    expect(live.sandbox).toBeDefined();
    const sandbox = live.sandbox!;
    expect(await catalogue(sandbox.id)).toEqual(await catalogue(live.id));
    const [ana] = await db.query<{ business_id: string; name: string }[]>('SELECT business_id, name FROM staff WHERE id = $1', [
      sandbox.staff.ana,
    ]);
    expect(ana).toEqual({ business_id: sandbox.id, name: 'Ana' });
    const [cut] = await db.query<{ business_id: string }[]>('SELECT business_id FROM services WHERE id = $1', [sandbox.services.cut]);
    expect(cut.business_id).toBe(sandbox.id);
    expect(await app.get(ApiKeysService).authenticate(live.keys.test.key)).toMatchObject({ mode: 'test', businessId: sandbox.id });

    // "sandbox": true alone makes it too; a business without either has none.
    expect((await seed({ sandbox: true })).sandbox).toBeDefined();
    expect((await seed({})).sandbox).toBeUndefined();
  });

  it('validates both fields with the fixture schema', async () => {
    await expect(seed({ sandbox: 'yes' as unknown as boolean })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ path: '/businesses/0/sandbox', message: 'businesses[0] (ref "business"): sandbox must be true or false' }],
    });
    await expect(
      seed({ keys: [{ ref: 'k', member: 'owner', name: 'K', scopes: ['services.read'], mode: 'sandbox' as 'test' }] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/businesses/0/keys/0/mode' }] });
  });
});
