import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApiApp } from '#api/configure-app.js';
import { loadBookingFixture } from '../factories/booking-fixture.js';
import { REPO_ROOT } from '../utils/child-process.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testConfig } from '../utils/test-config.js';
// eslint-disable-next-line no-restricted-imports -- docs/partners.md's partner example, run here against the real API so that it stays true
import { appointmentsBetween, bookFirstFreeStart, createSdk, findOrCreateClient } from '../../examples/partner-sdk.js';
import { SchedulingApiError } from '#sdk/index.js';

let app: NestExpressApplication;
let apiUrl: string;

beforeAll(async () => {
  app = await createApiApp(testConfig());
  await app.listen(0, '127.0.0.1');
  apiUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe('examples/partner-sdk.ts (the partner SDK, typed by the contract)', () => {
  it('reads the key’s business, creates a client, and finds it again on CLIENT_EXISTS', async () => {
    const tenant = await createTenant();
    const sdk = createSdk(apiUrl, tenant.key);
    expect((await sdk.me()).business.slug).toBe(tenant.slug);

    const digits = String(Date.now() % 10_000_000).padStart(7, '0');
    const body = {
      name: 'Rita Lopes',
      phone: `+35193${digits}`,
      email: `rita.${randomUUID().slice(0, 8)}@example.com`,
      consent: true,
    } as const;
    const created = await findOrCreateClient(sdk, body);
    // The same person typed another way: 409 CLIENT_EXISTS, then found by phone (D21).
    const found = await findOrCreateClient(sdk, { ...body, phone: `+351 93 ${digits}`, email: body.email.toUpperCase() });
    expect(found).toEqual(created);
    await expect(sdk.clients.create(body)).rejects.toMatchObject({ status: 409, code: 'CLIENT_EXISTS' });
  });

  it('books the first free start with any staff, lists it back, and reports a taken slot as a typed problem', async () => {
    const salon = await loadBookingFixture({ keys: 1 });
    // The booking fixture's keys hold the write scopes; the example also reads free times.
    const owner = { slug: salon.slug, ownerEmail: `owner@${salon.slug}.example` } as Tenant;
    const sdk = createSdk(apiUrl, await createKey(app, owner, ['services.read', 'appointments.read', 'appointments.write']));
    const day = { from: '2035-09-04T00:00:00Z', to: '2035-09-05T00:00:00Z' };
    const booked = await bookFirstFreeStart(sdk, salon.services.cut, salon.clients.joao, day);
    expect(booked?.status).toBe('CONFIRMED');

    const listed = await appointmentsBetween(sdk, new Date(day.from), new Date(day.to));
    expect(listed.map((appointment) => appointment.id)).toEqual([booked!.id]);

    const same = {
      staffId: booked!.staff.id,
      serviceId: salon.services.cut,
      startAt: booked!.scheduledAt,
      client: { id: salon.clients.joao },
    };
    const taken = await sdk.appointments.create(same).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(SchedulingApiError);
    expect((taken as SchedulingApiError).code).toBe('SLOT_TAKEN');
  });
});

describe('docs/partners.md', () => {
  it('shows the examples’ code as it is in examples/', () => {
    const readme = readFileSync(join(REPO_ROOT, 'docs', 'partners.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Examples'), readme.indexOf('\n## ', readme.indexOf('## Examples') + 1));
    const sources = ['partner-sdk.ts', 'notice-receiver.ts']
      .map((file) => readFileSync(join(REPO_ROOT, 'examples', file), 'utf8'))
      .join('\n');
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(sources).toContain(block);
  });

  it('runs each example through an npm script, on the project’s Node rather than the machine’s', () => {
    const readme = readFileSync(join(REPO_ROOT, 'docs', 'partners.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Examples'), readme.indexOf('\n## ', readme.indexOf('## Examples') + 1));
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const named = [...commands.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]);
    // npm puts node_modules/.bin (the project's Node 24) first on a script's PATH.
    expect(named.map((name) => scripts[name]?.match(/\bnode (examples\/\S+\.ts)$/)?.[1])).toEqual([
      'examples/partner-sdk.ts',
      'examples/notice-receiver.ts',
    ]);
    expect(commands).not.toMatch(/(^|\s)node examples\//);
  });
});
