import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { SecretsCipher } from '#core/secrets/secrets-cipher.js';
import { runAdminCommand, type AdminRun } from '../../utils/admin-runner.js';
import { testConfig } from '../../utils/test-config.js';
import { exampleFixture, uniqueSlug } from '../fixtures/example-fixture.js';

/**
 * The admin commands of change notices (docs/operations-interface.md): webhook create, list, rotate-secret,
 * enable, deliveries and replay; payment record; sale record. No worker runs here: these tests
 * look at what the commands write, the delivery itself is tested in test/integration/notices.
 */
const config = testConfig();
const cipher = new SecretsCipher(config);
const strict = testConfig({ WEBHOOKS_ALLOW_PRIVATE: 'false' });

const admin = (argv: string[], withConfig = config): Promise<AdminRun> => runAdminCommand(argv, withConfig);

describe('admin: change notices', () => {
  const db = new pg.Client({ connectionString: config.DATABASE_URL });
  let folder: string;
  let slug: string;
  let refs: { appointments: Record<string, string>; services: Record<string, string>; clients: Record<string, string> };

  beforeAll(async () => {
    await db.connect();
    folder = await mkdtemp(join(tmpdir(), 'notices-cli-'));
    slug = uniqueSlug('cli-notices');
    const file = join(folder, 'fixture.json');
    await writeFile(file, JSON.stringify(exampleFixture(slug)));
    const loaded = await admin(['fixtures', 'load', file]);
    expect(loaded.code).toBe(0);
    refs = loaded.json.businesses.salon;
  });

  afterAll(async () => {
    await db.end();
    await rm(folder, { recursive: true, force: true });
  });

  it('webhook create prints the id and the secret once; the secret is stored, never listed', async () => {
    const created = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/in',
      '--events',
      'client.created, sale.created',
      '--member',
      'ana@salon.example',
    ]);
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      business: slug,
      url: 'https://hooks.example/in',
      events: ['client.created', 'sale.created'],
      description: null,
      apiVersion: CURRENT_API_VERSION,
      createdAt: expect.any(String),
    });
    const { rows } = await db.query('SELECT secret, events, enabled, created_by_member_id FROM webhook_endpoints WHERE id = $1', [
      created.json.id,
    ]);
    expect(rows[0]).toMatchObject({ events: ['client.created', 'sale.created'], enabled: true });
    // Stored sealed under SECRETS_KEY: the row alone does not give the secret.
    expect(rows[0].secret).toMatch(/^v1:test1:/);
    expect(rows[0].secret).not.toContain(created.json.secret.slice('whsec_'.length, 20));
    expect(cipher.open(rows[0].secret, created.json.id)).toBe(created.json.secret);
    expect(rows[0].created_by_member_id).not.toBeNull();

    const listed = await admin(['webhook', 'list', '--business', slug]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('whsec_');
    expect(listed.json.webhooks).toContainEqual(
      expect.objectContaining({ id: created.json.id, enabled: true, previousSecretExpiresAt: null }),
    );
  });

  it('webhook create refuses unknown events, bad addresses and members who may not', async () => {
    const events = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/in',
      '--events',
      'client.created,client.deleted',
    ]);
    expect(events.code).toBe(1);
    expect(events.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: '/events', message: expect.stringContaining('client.deleted') }],
    });

    const http = await admin(
      ['webhook', 'create', '--business', slug, '--url', 'http://hooks.example/in', '--events', 'client.created'],
      strict,
    );
    expect(http.error).toEqual({ code: 'WEBHOOK_URL_REFUSED', detail: 'The address is refused: the address must be an https URL.' });
    const metadata = await admin(
      ['webhook', 'create', '--business', slug, '--url', 'https://169.254.169.254/', '--events', 'client.created'],
      strict,
    );
    expect(metadata.error).toEqual({
      code: 'WEBHOOK_URL_REFUSED',
      detail: 'The address is refused: the address must not point to a non-public address (link-local (cloud metadata)).',
    });

    const staff = await admin([
      'business',
      'member',
      'add',
      '--business',
      slug,
      '--name',
      'Rui',
      '--email',
      'rui@salon.example',
      '--role',
      'STAFF',
    ]);
    expect(staff.code).toBe(0);
    const byStaff = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/in',
      '--events',
      'client.created',
      '--member',
      'rui@salon.example',
    ]);
    expect(byStaff.error.errors).toEqual([{ path: '/member', message: expect.stringMatching(/only an OWNER or PARTNER/) }]);

    const missing = await admin([
      'webhook',
      'create',
      '--business',
      'no-such-business',
      '--url',
      'https://hooks.example/in',
      '--events',
      'client.created',
    ]);
    expect(missing.error.code).toBe('NOT_FOUND');
  });

  it('webhook rotate-secret prints a new secret and keeps the old one for 24 hours', async () => {
    const created = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/rotate',
      '--events',
      'client.created',
    ]);
    const rotated = await admin(['webhook', 'rotate-secret', '--business', slug, '--id', created.json.id]);
    expect(rotated.code).toBe(0);
    expect(rotated.json).toEqual({
      id: created.json.id,
      business: slug,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: expect.any(String),
    });
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const hours = (Date.parse(rotated.json.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const { rows } = await db.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [created.json.id]);
    expect(cipher.open(rows[0].secret, created.json.id)).toBe(rotated.json.secret);
    expect(cipher.open(rows[0].previous_secret, created.json.id)).toBe(created.json.secret);

    expect((await admin(['webhook', 'rotate-secret', '--business', slug, '--id', 'not-a-uuid'])).error.code).toBe('NOT_FOUND');
    const otherSlug = uniqueSlug('cli-other');
    const file = join(folder, 'other.json');
    await writeFile(file, JSON.stringify(exampleFixture(otherSlug)));
    await admin(['fixtures', 'load', file]);
    // Another business's endpoint is simply not found.
    expect((await admin(['webhook', 'rotate-secret', '--business', otherSlug, '--id', created.json.id])).error.code).toBe('NOT_FOUND');
  });

  it('webhook rotate-secret takes an upper-case id: the secret it prints is the one stored, and opens', async () => {
    const created = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/upper',
      '--events',
      'client.created',
    ]);
    const rotated = await admin(['webhook', 'rotate-secret', '--business', slug, '--id', created.json.id.toUpperCase()]);
    expect(rotated.code).toBe(0);
    expect(rotated.json.id).toBe(created.json.id);
    const { rows } = await db.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [created.json.id]);
    expect(cipher.open(rows[0].secret, created.json.id)).toBe(rotated.json.secret);
    expect(cipher.open(rows[0].previous_secret, created.json.id)).toBe(created.json.secret);
    // The endpoint is still readable (listed) and rotates again.
    expect((await admin(['webhook', 'list', '--business', slug])).code).toBe(0);
    expect((await admin(['webhook', 'rotate-secret', '--business', slug, '--id', created.json.id])).code).toBe(0);
  });

  it('payment record stores the payment; a PAID one records payment.received in the same transaction', async () => {
    const paid = await admin([
      'payment',
      'record',
      '--business',
      slug,
      '--appointment',
      refs.appointments.a1,
      '--amount',
      '2500',
      '--method',
      'CARD',
    ]);
    expect(paid.code).toBe(0);
    expect(paid.json).toMatchObject({
      business: slug,
      appointmentId: refs.appointments.a1,
      status: 'PAID',
      channel: 'IN_PERSON',
      method: 'CARD',
      amountCents: 2500,
      currency: 'EUR',
    });
    expect(paid.json.paidAt).toEqual(expect.any(String));
    const notice = await db.query('SELECT type, payload FROM notices WHERE id = $1', [paid.json.noticeId]);
    expect(notice.rows).toEqual([
      {
        type: 'payment.received',
        payload: {
          id: paid.json.noticeId,
          type: 'payment.received',
          createdAt: expect.any(String),
          business: slug,
          data: { id: paid.json.id, occurredAt: paid.json.paidAt },
        },
      },
    ]);

    const pending = await admin([
      'payment',
      'record',
      '--business',
      slug,
      '--appointment',
      refs.appointments.a1,
      '--amount',
      '500',
      '--method',
      'PIX',
      '--status',
      'PENDING',
    ]);
    expect(pending.json).toMatchObject({ status: 'PENDING', paidAt: null, noticeId: null });

    const unknown = await admin([
      'payment',
      'record',
      '--business',
      slug,
      '--appointment',
      '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10',
      '--amount',
      '500',
      '--method',
      'CASH',
    ]);
    expect(unknown.error.code).toBe('NOT_FOUND');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM payments WHERE appointment_id = $1', [
      '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10',
    ]);
    expect(rows[0].n).toBe(0);
    expect(
      (await admin(['payment', 'record', '--business', slug, '--appointment', refs.appointments.a1, '--amount', '5', '--method', 'GOLD']))
        .code,
    ).toBe(2);
    expect(
      (await admin(['payment', 'record', '--business', slug, '--appointment', refs.appointments.a1, '--amount', '-5', '--method', 'CASH']))
        .code,
    ).toBe(2);
  });

  it('sale record numbers the sale, totals it, records sale.created, and never prints costs or notes', async () => {
    const file = join(folder, 'sale.json');
    await writeFile(
      file,
      JSON.stringify({
        clientId: refs.clients.joao,
        appointmentId: refs.appointments.a1,
        paymentPending: true,
        items: [
          {
            type: 'SERVICE',
            name: 'Haircut',
            serviceId: refs.services.cut,
            quantity: 1,
            unitPriceCents: 2500,
            discountCents: 500,
            costCents: 900,
          },
          { type: 'PRODUCT', name: 'Shampoo', quantity: 2, unitPriceCents: 1200 },
        ],
        internalNote: 'regular, asked for a discount',
      }),
    );
    const sale = await admin(['sale', 'record', '--business', slug, '--file', file]);
    expect(sale.code).toBe(0);
    expect(sale.json).toMatchObject({
      business: slug,
      number: 2,
      status: 'COMPLETED',
      paymentPending: true,
      // As the contract defines them: the subtotal sums the items' totals (their own discounts
      // taken off), the sale's discount is on the whole sale, so no item discount counts twice.
      subtotalCents: 4400,
      discountCents: 0,
      totalCents: 4400,
      currency: 'EUR',
    });
    expect(sale.json.items.map((i: { totalCents: number }) => i.totalCents)).toEqual([2000, 2400]);
    // As the API shows a sale (the one mapping, libs/core/src/sales/sale.mapper.ts), with business and noticeId.
    expect(Object.keys(sale.json).sort()).toEqual(
      [
        'id',
        'business',
        'number',
        'status',
        'clientId',
        'appointmentId',
        'paymentPending',
        'items',
        'subtotalCents',
        'discountCents',
        'totalCents',
        'currency',
        'createdAt',
        'updatedAt',
        'noticeId',
      ].sort(),
    );
    expect(sale.stdout).not.toMatch(/costCents|internalNote|regular/);
    const { rows } = await db.query('SELECT type, payload FROM notices WHERE id = $1', [sale.json.noticeId]);
    expect(rows[0]).toMatchObject({ type: 'sale.created', payload: { business: slug, data: { id: sale.json.id } } });
    const stored = await db.query('SELECT internal_note FROM sales WHERE id = $1', [sale.json.id]);
    expect(stored.rows[0].internal_note).toBe('regular, asked for a discount');
  });

  it('sale record refuses a bad file with every problem, and ids of another business', async () => {
    const file = join(folder, 'bad-sale.json');
    await writeFile(
      file,
      JSON.stringify({ status: 'PAID', items: [{ type: 'SERVICE', quantity: 0, unitPriceCents: 10, discountCents: 50 }], colour: 'red' }),
    );
    const bad = await admin(['sale', 'record', '--business', slug, '--file', file]);
    expect(bad.code).toBe(1);
    expect(bad.error.code).toBe('VALIDATION_FAILED');
    expect(bad.error.errors?.map((e) => e.path).sort()).toEqual(['/colour', '/items/0/name', '/items/0/quantity', '/status']);

    await writeFile(
      file,
      JSON.stringify({
        clientId: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10',
        items: [{ type: 'SERVICE', name: 'Cut', serviceId: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e11', quantity: 1, unitPriceCents: 10 }],
      }),
    );
    const foreign = await admin(['sale', 'record', '--business', slug, '--file', file]);
    expect(foreign.error.errors).toEqual([
      { path: '/clientId', message: 'is not a client of this business' },
      { path: '/items/0/serviceId', message: 'is not a service of this business' },
    ]);
    const notices = await db.query(
      `SELECT count(*)::int AS n FROM notices n JOIN businesses b ON b.id = n.business_id WHERE b.slug = $1 AND n.type = 'sale.created'`,
      [slug],
    );
    expect(notices.rows[0].n).toBe(1);
  });

  it('sale record takes a discount on the whole sale off the sum of the items, and refuses one above it', async () => {
    const file = join(folder, 'discounted-sale.json');
    const items = [
      { type: 'SERVICE', name: 'Haircut', quantity: 1, unitPriceCents: 2500 },
      { type: 'PRODUCT', name: 'Shampoo', quantity: 1, unitPriceCents: 1600, discountCents: 100 },
    ];
    await writeFile(file, JSON.stringify({ items, discountCents: 300 }));
    const sale = await admin(['sale', 'record', '--business', slug, '--file', file]);
    expect(sale.code).toBe(0);
    expect(sale.json).toMatchObject({ subtotalCents: 4000, discountCents: 300, totalCents: 3700 });

    await writeFile(file, JSON.stringify({ items, discountCents: 4001 }));
    const refused = await admin(['sale', 'record', '--business', slug, '--file', file]);
    expect(refused.code).toBe(1);
    expect(refused.error.errors).toEqual([{ path: '/discountCents', message: "must not exceed the sum of the items' totals" }]);
  });

  it('webhook deliveries lists deliveries with their last attempt; replay puts finished ones back to PENDING', async () => {
    const created = await admin([
      'webhook',
      'create',
      '--business',
      slug,
      '--url',
      'https://hooks.example/replay',
      '--events',
      'payment.received',
    ]);
    const paid = await admin([
      'payment',
      'record',
      '--business',
      slug,
      '--appointment',
      refs.appointments.a1,
      '--amount',
      '100',
      '--method',
      'CASH',
    ]);
    const noticeId: string = paid.json.noticeId;

    const notRelayed = await admin(['webhook', 'replay', '--business', slug, '--notice', noticeId]);
    expect(notRelayed.json).toEqual({ business: slug, notice: noticeId, relayed: false, requeued: [] });

    // What the relay and a last failed attempt leave behind.
    const { rows } = await db.query(
      `INSERT INTO notice_deliveries (id, business_id, notice_id, endpoint_id, status, attempts)
       SELECT gen_random_uuid(), business_id, id, $2, 'FAILED', 10 FROM notices WHERE id = $1 RETURNING id`,
      [noticeId, created.json.id],
    );
    await db.query('UPDATE notices SET relayed_at = now() WHERE id = $1', [noticeId]);
    await db.query(
      `INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error)
       SELECT gen_random_uuid(), id, endpoint_id, 1, now(), 500, 31, 'HTTP 500' FROM notice_deliveries WHERE id = $1`,
      [rows[0].id],
    );

    const failed = await admin(['webhook', 'deliveries', '--business', slug, '--status', 'FAILED']);
    expect(failed.code).toBe(0);
    expect(failed.json.deliveries).toEqual([
      expect.objectContaining({
        id: rows[0].id,
        noticeId,
        type: 'payment.received',
        endpointId: created.json.id,
        url: 'https://hooks.example/replay',
        status: 'FAILED',
        attempts: 10,
        lastAttempt: { attemptedAt: expect.any(String), statusCode: 500, durationMs: 31, error: 'HTTP 500' },
      }),
    ]);
    expect((await admin(['webhook', 'deliveries', '--business', slug, '--status', 'LOST'])).code).toBe(2);

    const replay = await admin(['webhook', 'replay', '--business', slug, '--notice', noticeId]);
    expect(replay.json).toEqual({ business: slug, notice: noticeId, relayed: true, requeued: [{ endpointId: created.json.id }] });
    const after = await db.query('SELECT status, attempts, next_attempt_at <= now() AS due FROM notice_deliveries WHERE id = $1', [
      rows[0].id,
    ]);
    expect(after.rows[0]).toEqual({ status: 'PENDING', attempts: 0, due: true });
    expect((await admin(['webhook', 'deliveries', '--business', slug, '--status', 'FAILED'])).json.deliveries).toEqual([]);
    expect((await admin(['webhook', 'replay', '--business', slug, '--notice', '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10'])).error.code).toBe(
      'NOT_FOUND',
    );
  });
});
