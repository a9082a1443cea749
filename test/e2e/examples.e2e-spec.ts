import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApiApp } from '#api/configure-app.js';
import { loadBookingFixture } from '../factories/booking-fixture.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { createTenant } from '../utils/tenant-factory.js';
import { testConfig } from '../utils/test-config.js';
// eslint-disable-next-line no-restricted-imports -- the README's partner example, run here against the real API so that it stays true
import {
  SchedulingApiError,
  bookAppointment,
  createClientRecord,
  createSchedulingClient,
  listAppointments,
} from '../../examples/partner-client.js';

let app: NestExpressApplication;
let apiUrl: string;

beforeAll(async () => {
  app = await createApiApp(testConfig());
  await app.listen(0, '127.0.0.1');
  apiUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe('examples/partner-client.ts (openapi-fetch, typed by the contract)', () => {
  it('reads the key’s business and creates a client, idempotently', async () => {
    const tenant = await createTenant();
    const client = createSchedulingClient(apiUrl, tenant.key);
    const me = await client.GET('/me');
    expect(me.data?.business.slug).toBe(tenant.slug);

    const idempotencyKey = randomUUID();
    const body = { name: 'Rita Lopes', phone: '+351913000444', email: 'rita.examples@example.com', consent: true } as const;
    const created = await createClientRecord(client, body, idempotencyKey);
    const replayed = await createClientRecord(client, body, idempotencyKey);
    expect(replayed.id).toBe(created.id);
    await expect(createClientRecord(client, body)).rejects.toMatchObject({ problem: { status: 409, code: 'CLIENT_EXISTS' } });
  });

  it('books, lists the booking back, and reports a taken slot as a typed problem', async () => {
    const salon = await loadBookingFixture({ keys: 1 });
    const client = createSchedulingClient(apiUrl, salon.keys[0]);
    const booking = {
      staffId: salon.staff.ana,
      serviceId: salon.services.cut,
      startAt: '2035-09-04T10:00:00Z',
      client: { id: salon.clients.joao },
    };
    const booked = await bookAppointment(client, booking);
    expect(booked.status).toBe('CONFIRMED');

    const listed = await listAppointments(client, new Date('2035-09-04T00:00:00Z'), new Date('2035-09-05T00:00:00Z'));
    expect(listed.map((appointment) => appointment.id)).toEqual([booked.id]);

    const taken = await bookAppointment(client, booking).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(SchedulingApiError);
    expect((taken as SchedulingApiError).problem.code).toBe('SLOT_TAKEN');
  });
});

describe('README', () => {
  it('shows the examples’ code as it is in examples/', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Examples'), readme.indexOf('\n## ', readme.indexOf('## Examples') + 1));
    const sources = ['partner-client.ts', 'notice-receiver.ts']
      .map((file) => readFileSync(join(REPO_ROOT, 'examples', file), 'utf8'))
      .join('\n');
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(sources).toContain(block);
  });
});
