import { randomUUID } from 'node:crypto';
import type { Schemas } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { ReadSeeds } from '../utils/read-seeds.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let db: TestSql;
let tenant: Tenant;
let other: Tenant;
let seeds: ReadSeeds;
let clientId: string;
let appointmentIds: string[];

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  tenant = await createTenant();
  other = await createTenant();
  seeds = new ReadSeeds(db, tenant.businessId);
  const staffId = await seeds.staff();
  clientId = await seeds.client();
  appointmentIds = [];
  for (const startsAt of ['2030-05-01T09:00:00Z', '2030-05-01T10:00:00Z', '2030-05-01T11:00:00Z']) {
    appointmentIds.push(await seeds.appointment({ staffId, clientId, startsAt }));
  }
});
afterAll(() => api.close());

/** Every page of a list, following nextCursor with a small limit. */
async function walk(path: string, query: Record<string, string | number> = {}): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await api.get(path, { key: tenant.key, query: { ...query, limit: 2, ...(cursor === null ? {} : { cursor }) } });
    expect(res.status).toBe(200);
    ids.push(...(res.body.data as { id: string }[]).map((r) => r.id));
    cursor = res.body.nextCursor as string | null;
    pages += 1;
  } while (cursor !== null);
  return { ids, pages };
}

describe('GET /payments and GET /payments/{id}', () => {
  let paid: string;
  let pending: string;
  let refunded: string;

  beforeAll(async () => {
    // Inserted out of update order: the list must be by updatedAt, not by insertion or id.
    refunded = await seeds.payment({
      appointmentId: appointmentIds[2],
      status: 'REFUNDED',
      method: 'MBWAY',
      updatedAt: '2030-05-03T12:00:00.000002Z',
    });
    paid = await seeds.payment({
      appointmentId: appointmentIds[0],
      status: 'PAID',
      paidAt: '2030-05-01T09:35:00.5Z',
      updatedAt: '2030-05-01T09:35:00.5Z',
    });
    pending = await seeds.payment({
      appointmentId: appointmentIds[1],
      status: 'PENDING',
      method: 'PIX',
      updatedAt: '2030-05-03T12:00:00.000001Z',
    });
  });

  it('returns every field of a payment', async () => {
    const res = await api.get(`/payments/${paid}`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: paid,
      appointmentId: appointmentIds[0],
      channel: 'IN_PERSON',
      method: 'CARD',
      status: 'PAID',
      isDeposit: false,
      amountCents: 2500,
      currency: 'EUR',
      paidAt: '2030-05-01T09:35:00.500Z',
      refundCents: 0,
      createdAt: '2030-05-01T09:35:00.500Z',
      updatedAt: '2030-05-01T09:35:00.500Z',
    } satisfies Schemas['Payment']);
    expect((await api.get(`/payments/${pending}`, { key: tenant.key })).body.paidAt).toBeNull();
  });

  it('lists payments in order of update, through every page, from updatedSince inclusive', async () => {
    expect(await walk('/payments')).toEqual({ ids: [paid, pending, refunded], pages: 2 });
    expect((await walk('/payments', { updatedSince: '2030-05-03T12:00:00.000002Z' })).ids).toEqual([refunded]);
  });

  it("answers 404 for an unknown id, a non-UUID and another business's payment", async () => {
    for (const id of [randomUUID(), 'x1']) expect((await api.get(`/payments/${id}`, { key: tenant.key })).status).toBe(404);
    const res = await api.get(`/payments/${paid}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await api.get('/payments', { key: other.key })).body).toEqual({ data: [], nextCursor: null });
  });
});

describe('GET /sales and GET /sales/{id}', () => {
  let sale: { id: string; itemIds: string[] };
  let open: { id: string; itemIds: string[] };
  let bare: { id: string; itemIds: string[] };
  let serviceId: string;

  beforeAll(async () => {
    serviceId = await seeds.service('Colouring');
    sale = await seeds.sale({
      number: 1,
      clientId,
      appointmentId: appointmentIds[0],
      discountCents: 500,
      updatedAt: '2030-05-02T10:00:00Z',
      items: [
        { type: 'SERVICE', name: 'Colouring', serviceId, unitPriceCents: 4000 },
        { type: 'PRODUCT', name: 'Shampoo', quantity: 2, unitPriceCents: 1200, discountCents: 200, costCents: 400 },
        { type: 'GIFT_CARD', name: 'Gift card', unitPriceCents: 2000 },
      ],
    });
    open = await seeds.sale({
      number: 2,
      status: 'OPEN',
      paymentPending: true,
      updatedAt: '2030-05-02T09:00:00Z',
      items: [{ name: 'Cut', unitPriceCents: 1500 }],
    });
    bare = await seeds.sale({ number: 3, status: 'VOID', updatedAt: '2030-05-02T11:00:00Z', items: [] });
  });

  it('returns the Sale of D8 with its items in their order on the sale', async () => {
    const res = await api.get(`/sales/${sale.id}`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: sale.id,
      number: 1,
      status: 'COMPLETED',
      clientId,
      appointmentId: appointmentIds[0],
      paymentPending: false,
      items: [
        {
          id: sale.itemIds[0],
          type: 'SERVICE',
          name: 'Colouring',
          serviceId,
          quantity: 1,
          unitPriceCents: 4000,
          discountCents: 0,
          totalCents: 4000,
        },
        {
          id: sale.itemIds[1],
          type: 'PRODUCT',
          name: 'Shampoo',
          serviceId: null,
          quantity: 2,
          unitPriceCents: 1200,
          discountCents: 200,
          totalCents: 2200,
        },
        {
          id: sale.itemIds[2],
          type: 'GIFT_CARD',
          name: 'Gift card',
          serviceId: null,
          quantity: 1,
          unitPriceCents: 2000,
          discountCents: 0,
          totalCents: 2000,
        },
      ],
      subtotalCents: 8200,
      discountCents: 500,
      totalCents: 7700,
      currency: 'EUR',
      createdAt: '2030-05-02T10:00:00.000Z',
      updatedAt: '2030-05-02T10:00:00.000Z',
    } satisfies Schemas['Sale']);
  });

  it('lists sales with their items in order of update, through every page', async () => {
    expect(await walk('/sales')).toEqual({ ids: [open.id, sale.id, bare.id], pages: 2 });
    const page = await api.get('/sales', { key: tenant.key, query: { updatedSince: '2030-05-02T09:30:00Z' } });
    expect(page.body.data.map((s: Schemas['Sale']) => s.id)).toEqual([sale.id, bare.id]);
    expect(page.body.data[0].items.map((i: Schemas['SaleItem']) => i.id)).toEqual(sale.itemIds);
    expect(page.body.data[1]).toMatchObject({ status: 'VOID', items: [], clientId: null, appointmentId: null });
    const pending = await api.get(`/sales/${open.id}`, { key: tenant.key });
    expect(pending.body).toMatchObject({ status: 'OPEN', paymentPending: true });
  });

  it("answers 404 for an unknown id and another business's sale", async () => {
    expect((await api.get(`/sales/${randomUUID()}`, { key: tenant.key })).status).toBe(404);
    expect((await api.get(`/sales/${sale.id}`, { key: other.key })).status).toBe(404);
    expect((await api.get('/sales', { key: other.key })).body).toEqual({ data: [], nextCursor: null });
  });
});
