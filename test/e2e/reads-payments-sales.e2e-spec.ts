import { randomUUID } from 'node:crypto';
import type { Schemas } from '#contract/contract-types.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed, seedMore, type SeededBusiness } from '../utils/seed.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql, type TestSql } from '../utils/test-context.js';

let api: E2eApi;
let db: TestSql;
let tenant: { key: string };
let other: Tenant;
let salon: SeededBusiness;
let clientId: string;
let appointmentIds: string[];

const STARTS = ['2030-05-01T09:00:00Z', '2030-05-01T10:00:00Z', '2030-05-01T11:00:00Z'];

beforeAll(async () => {
  api = await E2eApi.start();
  db = testSql(api.app);
  salon = await seed({
    staff: [{ ref: 'ana', name: 'Ana Costa' }],
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
    appointments: STARTS.map((startAt, i) => ({ ref: `a${i}`, staff: 'ana', service: 'cut', client: 'joao', startAt })),
  });
  tenant = { key: salon.keys.owner.key };
  other = await createTenant();
  clientId = salon.clients.joao;
  appointmentIds = STARTS.map((_, i) => salon.appointments[`a${i}`]);
});

/** A sale's item ids in the order of their position on it. */
async function itemIdsOf(saleId: string): Promise<string[]> {
  return (await db.query<{ id: string }[]>('SELECT id FROM sale_items WHERE sale_id = $1 ORDER BY position', [saleId])).map((r) => r.id);
}
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
    const base = { channel: 'IN_PERSON', amountCents: 2500 } as const;
    // Written out of update order: the list must be by updatedAt, not by insertion or id.
    salon = await seedMore(salon, {
      payments: [
        {
          ...base,
          ref: 'refunded',
          appointment: 'a2',
          method: 'MBWAY',
          status: 'REFUNDED',
          paidAt: '2030-05-03T11:00:00Z',
          refundCents: 2500,
          updatedAt: '2030-05-03T12:00:00.000002Z',
        },
        {
          ...base,
          ref: 'paid',
          appointment: 'a0',
          method: 'CARD',
          status: 'PAID',
          paidAt: '2030-05-01T09:35:00.5Z',
          updatedAt: '2030-05-01T09:35:00.5Z',
        },
        { ...base, ref: 'pending', appointment: 'a1', method: 'PIX', status: 'PENDING', updatedAt: '2030-05-03T12:00:00.000001Z' },
      ],
    });
    ({ refunded, paid, pending } = salon.payments);
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
    salon = await seedMore(salon, {
      services: [{ ref: 'colouring', name: 'Colouring', durationMin: 90, priceCents: 4000 }],
      sales: [
        {
          ref: 'sale',
          number: 1,
          status: 'COMPLETED',
          client: 'joao',
          appointment: 'a0',
          discountCents: 500,
          updatedAt: '2030-05-02T10:00:00Z',
          items: [
            { type: 'SERVICE', name: 'Colouring', service: 'colouring', quantity: 1, unitPriceCents: 4000 },
            { type: 'PRODUCT', name: 'Shampoo', quantity: 2, unitPriceCents: 1200, discountCents: 200, costCents: 400 },
            { type: 'GIFT_CARD', name: 'Gift card', quantity: 1, unitPriceCents: 2000 },
          ],
        },
        {
          ref: 'open',
          number: 2,
          status: 'OPEN',
          paymentPending: true,
          updatedAt: '2030-05-02T09:00:00Z',
          items: [{ type: 'SERVICE', name: 'Cut', quantity: 1, unitPriceCents: 1500 }],
        },
        { ref: 'bare', number: 3, status: 'VOID', updatedAt: '2030-05-02T11:00:00Z', items: [] },
      ],
    });
    serviceId = salon.services.colouring;
    [sale, open, bare] = await Promise.all(
      ['sale', 'open', 'bare'].map(async (ref) => ({ id: salon.sales[ref], itemIds: await itemIdsOf(salon.sales[ref]) })),
    );
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
