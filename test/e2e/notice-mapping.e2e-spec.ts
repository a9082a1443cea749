import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import type { RequestBody } from '#contract/contract-types.js';
import { NOTICE_TYPES } from '#contract/generated/operations.js';
import { loadContract, resolveRef } from '#contract/openapi-document.js';
import { createAjv, DOCUMENT_ID, type ValidateFunction } from '#contract/schema-compiler.js';
import { anchorRefs } from '#contract/validation-errors.js';
import type { FixtureFile } from '#core/fixtures/fixture-file.js';
import { CORE_NOTICE_TYPES, type ServedNoticeType } from '#core/notices/outbox/notice-types.js';
import { exampleBusiness, uniqueSlug } from '../integration/fixtures/example-fixture.js';
import { adminOutput } from '../utils/admin-runner.js';
import { E2eApi } from '../utils/e2e-api.js';
import { NoticeReceiver, verifyNotice, type ReceivedNotice } from '../utils/notice-receiver.js';
import { emptyNoticesQueue } from '../utils/notice-setup.js';
import { testConfig } from '../utils/test-config.js';
import { startTestContext, type TestSql } from '../utils/test-context.js';

/**
 * Which write emits which notice (D9), end to end: the write (through the API or the admin
 * command line), the outbox, the relay, the queue, the signed POST, and the receiver. Each write
 * must produce exactly its listed notices, only to the endpoints subscribed to that type, with a
 * body that holds D9's fields and nothing else.
 */
const config = testConfig();
const D9_FIELDS = ['id', 'type', 'createdAt', 'business', 'data'];
/** What an endpoint of 1.4.0 receives: the stored body, with its mode after `business` (docs/design-record.md#d23). */
const SENT_FIELDS = ['id', 'type', 'createdAt', 'business', 'mode', 'data'];

let api: E2eApi;
let worker: INestApplicationContext;
let receiver: NoticeReceiver;
let db: TestSql;
let folder: string;

const admin = (...argv: string[]): Promise<Record<string, unknown>> => adminOutput(argv, config);

/** The contract's body schema of each notice type (webhooks → requestBody), compiled once. */
function noticeValidators(): Map<string, ValidateFunction> {
  const { document } = loadContract();
  const ajv = createAjv(document, { coerceTypes: false });
  const webhooks = document.webhooks as Record<string, { post: { requestBody: unknown } }>;
  const validators = new Map<string, ValidateFunction>();
  for (const type of NOTICE_TYPES) {
    const body = resolveRef<{ content: Record<string, { schema: object }> }>(document, webhooks[type].post.requestBody);
    validators.set(type, ajv.compile(anchorRefs(body.content['application/json'].schema, DOCUMENT_ID) as object));
  }
  return validators;
}

interface Tenant {
  id: string;
  slug: string;
  key: string;
  appointment: string;
  pending: string;
  service: string;
  client: string;
  staff: string;
}

async function loadTenant(): Promise<Tenant> {
  const slug = uniqueSlug('mapping');
  const example = exampleBusiness(slug);
  const business = {
    ...example,
    appointments: [
      ...(example.appointments ?? []),
      { ref: 'a2', staff: 'ana', service: 'cut', client: 'joao', startAt: '2030-01-21T09:00:00Z', status: 'PENDING' as const },
    ],
    keys: [{ ref: 'site', member: 'owner', name: 'Site', scopes: ['clients.write', 'clients.read', 'appointments.write'] }],
    webhooks: [],
  };
  const file = join(folder, `${slug}.json`);
  await writeFile(file, JSON.stringify({ businesses: [business] } satisfies FixtureFile));
  const loaded = (await admin('fixtures', 'load', file)) as {
    businesses: Record<
      string,
      {
        id: string;
        slug: string;
        keys: Record<string, { key: string }>;
        appointments: Record<string, string>;
        services: Record<string, string>;
        clients: Record<string, string>;
        staff: Record<string, string>;
      }
    >;
  };
  const refs = loaded.businesses.salon;
  return {
    id: refs.id,
    slug: refs.slug,
    key: refs.keys.site.key,
    appointment: refs.appointments.a1,
    pending: refs.appointments.a2,
    service: refs.services.cut,
    client: refs.clients.joao,
    staff: refs.staff.ana,
  };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'notice-mapping-'));
  await emptyNoticesQueue(config);
  api = await E2eApi.start(config);
  ({ app: worker, sql: db } = await startTestContext({ app: 'worker' }));
  receiver = await NoticeReceiver.start();
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await receiver.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the D9 mapping of writes to notices', () => {
  it('every write of D9 emits exactly its notices, to subscribed endpoints only', async () => {
    const tenant = await loadTenant();
    const other = await loadTenant();
    const create = (slug: string, path: string, events: ServedNoticeType[]) =>
      admin('webhook', 'create', '--business', slug, '--url', receiver.url(path), '--events', events.join(',')) as Promise<{
        id: string;
        secret: string;
      }>;
    const clientsAndPayments = await create(tenant.slug, '/clients-and-payments', ['client.created', 'payment.received']);
    const sales = await create(tenant.slug, '/sales', ['sale.created']);
    const appointments = await create(tenant.slug, '/appointments', [
      'appointment.created',
      'appointment.confirmed',
      'appointment.cancelled',
      'appointment.rescheduled',
    ]);
    await create(other.slug, '/other-business', [...CORE_NOTICE_TYPES]);
    const secrets = new Map([
      ['/clients-and-payments', clientsAndPayments.secret],
      ['/sales', sales.secret],
      ['/appointments', appointments.secret],
    ]);

    // The writes, each with the notices D9 says it emits.
    const created = await api.post('/clients', {
      key: tenant.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { name: 'Marta Reis', phone: '+351916000777', email: 'marta@example.com', consent: true } satisfies RequestBody<'createClient'>,
    });
    expect(created.status).toBe(201);
    const paid = await admin(
      'payment',
      'record',
      '--business',
      tenant.slug,
      '--appointment',
      tenant.appointment,
      '--amount',
      '2500',
      '--method',
      'MBWAY',
      '--status',
      'PAID',
    );
    const pending = await admin(
      'payment',
      'record',
      '--business',
      tenant.slug,
      '--appointment',
      tenant.appointment,
      '--amount',
      '1000',
      '--method',
      'CARD',
      '--status',
      'PENDING',
    );
    expect(pending.noticeId).toBeNull();
    const saleFile = join(folder, 'sale.json');
    await writeFile(
      saleFile,
      JSON.stringify({
        clientId: tenant.client,
        appointmentId: tenant.appointment,
        items: [{ type: 'SERVICE', name: 'Haircut', serviceId: tenant.service, quantity: 1, unitPriceCents: 2500, costCents: 900 }],
        internalNote: 'cash drawer 2',
      }),
    );
    const sale = await admin('sale', 'record', '--business', tenant.slug, '--file', saleFile);

    // Appointment writes: book (Form A, and Form B with a new client), reschedule, cancel, confirm.
    const book = (startAt: string, client: RequestBody<'createAppointment'>['client']) =>
      api.post('/appointments', {
        key: tenant.key,
        headers: { 'Idempotency-Key': randomUUID() },
        body: { staffId: tenant.staff, serviceId: tenant.service, startAt, client } satisfies RequestBody<'createAppointment'>,
      });
    const formA = await book('2030-01-14T09:00:00Z', { id: tenant.client });
    expect(formA.status).toBe(201);
    const formB = await book('2030-01-14T11:00:00Z', { name: 'Inês Rocha', phone: '+351916000999' });
    expect(formB.status).toBe(201);
    const moved = await api.post(`/appointments/${formA.body.id}/reschedule`, {
      key: tenant.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { startAt: '2030-01-14T15:00:00Z' } satisfies RequestBody<'rescheduleAppointment'>,
    });
    expect(moved.status).toBe(200);
    const cancelled = await api.post(`/appointments/${formB.body.id}/cancel`, {
      key: tenant.key,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { reason: 'Client asked to cancel' } satisfies RequestBody<'cancelAppointment'>,
    });
    expect(cancelled.status).toBe(200);
    await admin('appointment', 'confirm', '--business', tenant.slug, '--id', tenant.pending);

    const expected: { path: string; type: ServedNoticeType; subject: unknown }[] = [
      { path: '/clients-and-payments', type: 'client.created', subject: created.body.id },
      { path: '/clients-and-payments', type: 'payment.received', subject: paid.id },
      { path: '/sales', type: 'sale.created', subject: sale.id },
      { path: '/clients-and-payments', type: 'client.created', subject: formB.body.client.id },
      { path: '/appointments', type: 'appointment.created', subject: formA.body.id },
      { path: '/appointments', type: 'appointment.created', subject: formB.body.id },
      { path: '/appointments', type: 'appointment.rescheduled', subject: moved.body.id },
      { path: '/appointments', type: 'appointment.cancelled', subject: formB.body.id },
      { path: '/appointments', type: 'appointment.confirmed', subject: tenant.pending },
    ];
    await receiver.waitFor((all) => all.filter((r) => r.path !== '/other-business').length >= expected.length);
    // Anything extra would have arrived by now as well.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const mine = receiver.received.filter((r) => r.path !== '/other-business');
    const summary = (r: ReceivedNotice) => {
      const body = JSON.parse(r.body) as { type: string; data: { id: string } };
      return { path: r.path, type: body.type, subject: body.data.id };
    };
    const order = (a: { type: string; subject: unknown }, b: { type: string; subject: unknown }) =>
      `${a.type} ${String(a.subject)}`.localeCompare(`${b.type} ${String(b.subject)}`);
    expect(mine.map(summary).sort(order)).toEqual(expected.sort(order));
    expect(receiver.received.filter((r) => r.path === '/other-business')).toEqual([]);

    const validators = noticeValidators();
    for (const received of mine) {
      const body = verifyNotice(secrets.get(received.path) ?? '', received) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(SENT_FIELDS);
      // appointment.rescheduled also names the appointment it replaced, and nothing else does.
      const data = body.data as Record<string, unknown>;
      if (body.type === 'appointment.rescheduled') {
        expect(Object.keys(data)).toEqual(['id', 'occurredAt', 'previousId']);
        expect(data.previousId).toBe(formA.body.id);
      } else {
        expect(Object.keys(data)).toEqual(['id', 'occurredAt']);
      }
      expect(body.business).toBe(tenant.slug);
      expect(received.headers['webhook-id']).toBe(body.id);
      const validate = validators.get(body.type as string);
      expect(validate?.(body) ? [] : validate?.errors).toEqual([]);
      // Never a name, phone, e-mail or amount.
      for (const secret of ['Marta', '916000777', 'marta@', 'Inês', '916000999', 'Cents', 'MBWAY', 'cash drawer', 'asked to cancel']) {
        expect(received.body).not.toContain(secret);
      }
    }

    // The outbox holds exactly these notices for the business, each exactly D9's body.
    const stored = await db.query<{ type: string; payload: Record<string, unknown> }[]>(
      'SELECT type, payload FROM notices WHERE business_id = $1',
      [tenant.id],
    );
    expect(stored.map((n) => n.type).sort()).toEqual(expected.map((e) => e.type).sort());
    for (const { type, payload } of stored) {
      expect(Object.keys(payload).sort()).toEqual([...D9_FIELDS].sort());
      const dataKeys = type === 'appointment.rescheduled' ? ['id', 'occurredAt', 'previousId'] : ['id', 'occurredAt'];
      expect(Object.keys(payload.data as object).sort()).toEqual(dataKeys);
    }
  });

  it('an idempotent replay of POST /clients emits nothing', async () => {
    const tenant = await loadTenant();
    const key = randomUUID();
    const body = { name: 'Rui Matos', phone: '+351916000888', consent: true } satisfies RequestBody<'createClient'>;
    const first = await api.post('/clients', { key: tenant.key, headers: { 'Idempotency-Key': key }, body });
    const again = await api.post('/clients', { key: tenant.key, headers: { 'Idempotency-Key': key }, body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const stored = await db.query<{ type: string }[]>('SELECT type FROM notices WHERE business_id = $1', [tenant.id]);
    expect(stored).toEqual([{ type: 'client.created' }]);
  });
});
