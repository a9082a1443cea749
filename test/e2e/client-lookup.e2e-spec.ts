import { randomUUID } from 'node:crypto';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { createKey, createTenant, type Tenant } from '../utils/tenant-factory.js';

/** GET /clients?phone=&email= (docs/design-record.md#d21). */
let api: E2eApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
});
afterAll(() => api.close());

const phoneBase = Date.now() % 100_000;
let phoneSeq = 0;

/** A valid Portuguese mobile number no other client of this run has, in E.164 and as a person types it. */
function uniquePhone(): { e164: string; typed: string } {
  phoneSeq += 1;
  const digits = String(phoneBase * 100 + phoneSeq).padStart(7, '0');
  return { e164: `+35191${digits}`, typed: `+351 91 ${digits.slice(0, 3)} ${digits.slice(3)}` };
}

async function createClient(body: Record<string, unknown>): Promise<ApiResponse> {
  return api.post('/clients', { key: tenant.key, body: { consent: true, ...body }, headers: { 'Idempotency-Key': randomUUID() } });
}

const list = (query: Record<string, string | number>, key = tenant.key): Promise<ApiResponse> => api.get('/clients', { key, query });

function expectValidationFailed(res: ApiResponse, path: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  expect((res.body.errors as { path: string }[]).map((error) => error.path)).toContain(path);
}

describe('GET /clients lookup by phone and e-mail (D21)', () => {
  it('finds a client by its phone written in another format, and only that client', async () => {
    const phone = uniquePhone();
    const created = await createClient({ name: 'Lookup Phone', phone: phone.e164 });
    await createClient({ name: 'Someone Else', phone: uniquePhone().e164 });
    expect(created.status).toBe(201);

    const found = await list({ phone: phone.typed });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ data: [created.body], nextCursor: null });
    // The stored form itself, and a phone nobody has.
    expect((await list({ phone: phone.e164 })).body.data).toEqual([created.body]);
    expect((await list({ phone: uniquePhone().typed })).body).toEqual({ data: [], nextCursor: null });
  });

  it('finds a client by its e-mail in another case', async () => {
    const local = `Marta.${randomUUID().slice(0, 8)}`;
    const created = await createClient({ name: 'Lookup Mail', phone: uniquePhone().e164, email: `${local}@Example.COM` });
    expect(created.status).toBe(201);

    const found = await list({ email: `${local.toLowerCase()}@example.com` });
    expect(found.body).toEqual({ data: [created.body], nextCursor: null });
    expect((await list({ email: `${local.toUpperCase()}@EXAMPLE.COM` })).body.data).toEqual([created.body]);
    expect((await list({ email: `not-${local}@example.com` })).body.data).toEqual([]);
  });

  it('combines phone and e-mail (both must match) and updatedSince, and pages with the filters bound to the cursor', async () => {
    const phone = uniquePhone();
    const email = `both.${randomUUID().slice(0, 8)}@example.com`;
    const created = await createClient({ name: 'Lookup Both', phone: phone.e164, email });
    const other = await createClient({
      name: 'Other Both',
      phone: uniquePhone().e164,
      email: `other.${randomUUID().slice(0, 8)}@example.com`,
    });

    expect((await list({ phone: phone.typed, email: email.toUpperCase() })).body.data).toEqual([created.body]);
    // The phone of one client and the e-mail of another: nobody has both.
    expect((await list({ phone: phone.typed, email: other.body.email })).body.data).toEqual([]);

    const updatedAt = created.body.updatedAt as string;
    expect((await list({ phone: phone.typed, updatedSince: updatedAt })).body.data).toEqual([created.body]);
    const later = new Date(Date.parse(updatedAt) + 1).toISOString();
    expect((await list({ phone: phone.typed, updatedSince: later })).body.data).toEqual([]);

    const page = await list({ email, limit: 1 });
    expect(page.body).toEqual({ data: [created.body], nextCursor: null });

    // A cursor of the plain list does not continue a lookup, nor one lookup's cursor another's.
    const plain = await list({ limit: 1 });
    expect(plain.body.nextCursor).toEqual(expect.any(String));
    const crossed = await list({ phone: phone.typed, cursor: plain.body.nextCursor, limit: 1 });
    expect({ status: crossed.status, code: crossed.body.code }).toEqual({ status: 400, code: 'CURSOR_INVALID' });
    // And the plain list's cursor still walks the plain list.
    expect((await list({ cursor: plain.body.nextCursor, limit: 1 })).status).toBe(200);
  });

  it('answers 400 VALIDATION_FAILED naming the parameter for a malformed phone or e-mail', async () => {
    expectValidationFailed(await list({ phone: 'not a phone' }), '/query/phone');
    // The shape passes the contract's pattern, but the number is not in any real range (libphonenumber).
    expectValidationFailed(await list({ phone: '+351 000 000' }), '/query/phone');
    expectValidationFailed(await list({ email: 'not-an-email' }), '/query/email');
    expectValidationFailed(await list({ email: 'two@@example.com' }), '/query/email');
    const both = await list({ phone: '+1 000', email: 'x' });
    expect(both.status).toBe(400);
  });

  it('refuses a lookup without a criterion (an empty or blank phone or e-mail) as 400 naming each parameter, never answering a client', async () => {
    // The business has clients: a lookup that fell back to the plain list would answer the first.
    await createClient({ name: 'Not Meant', phone: uniquePhone().e164 });
    expectValidationFailed(await list({ phone: '' }), '/query/phone');
    expectValidationFailed(await list({ email: '' }), '/query/email');
    expectValidationFailed(await list({ phone: '   ' }), '/query/phone');
    expectValidationFailed(await list({ email: ' ' }), '/query/email');
    expectValidationFailed(await list({ phone: '', limit: 1 }), '/query/phone');
    const neither = await list({ phone: '', email: '' });
    expectValidationFailed(neither, '/query/phone');
    expectValidationFailed(neither, '/query/email');
    // Only the plain list, without either parameter, lists every client.
    expect((await list({ limit: 1 })).body.data).toHaveLength(1);
  });

  it('needs clients.read', async () => {
    const key = await createKey(api.app, tenant, ['appointments.read']);
    const res = await list({ phone: uniquePhone().typed }, key);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'API_SCOPE_MISSING' });
  });

  it('after 409 CLIENT_EXISTS, the lookup finds the client that exists', async () => {
    const phone = uniquePhone();
    const email = `exists.${randomUUID().slice(0, 8)}@example.com`;
    const first = await createClient({ name: 'Existing Client', phone: phone.e164, email });
    expect(first.status).toBe(201);

    // Same phone typed differently: refused, and the refusal says why but not who.
    const again = await createClient({ name: 'Existing Again', phone: phone.typed });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'CLIENT_EXISTS' });
    expect((await list({ phone: phone.typed })).body.data.map((client: { id: string }) => client.id)).toEqual([first.body.id]);

    // Same e-mail in another case with a new phone: refused too, and found by the e-mail.
    const byMail = await createClient({ name: 'Existing Mail', phone: uniquePhone().e164, email: email.toUpperCase() });
    expect({ status: byMail.status, code: byMail.body.code }).toEqual({ status: 409, code: 'CLIENT_EXISTS' });
    expect((await list({ email: email.toUpperCase() })).body.data.map((client: { id: string }) => client.id)).toEqual([first.body.id]);
  });
});
