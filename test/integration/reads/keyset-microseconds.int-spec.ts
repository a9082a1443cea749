import { AppointmentReadsService } from '#core/appointments/appointment-reads.service.js';
import { ClientReadsService } from '#core/clients/client-reads.service.js';
import { parseDateTime, toTimestampLiteral } from '#core/pagination/epoch-micros.js';
import type { Page } from '#core/pagination/page.js';
import { PaymentReadsService } from '#core/payments/payment-reads.service.js';
import { SaleReadsService } from '#core/sales/sale-reads.service.js';
import { seed } from '../../utils/seed.js';
import type { TestContext, TestSql } from '../../utils/test-context.js';
import { startReads } from './reads-test.module.js';

/**
 * PostgreSQL keeps microseconds; a Date keeps milliseconds. Rows inside one millisecond, and rows
 * with the very same instant, must each come exactly once and in order, whatever the page size.
 */
const MILLISECOND = '2030-09-01T10:00:00.123';
const STAMPS = ['000', '001', '001', '001', '002', '500', '999'].map((micro) => `${MILLISECOND}${micro}Z`);
STAMPS.push('2030-09-01T10:00:00.124000Z');

let context: TestContext;
let db: TestSql;

beforeAll(async () => {
  context = await startReads();
  db = context.sql;
});
afterAll(() => context.close());

/** Every item of a list, page after page. */
async function walk<T extends { id: string }>(list: (cursor: string | undefined) => Promise<Page<T>>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages += 1) {
    const page = await list(cursor);
    ids.push(...page.items.map((item) => item.id));
    if (page.nextCursor === null) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('the walk does not end: a cursor repeats rows');
}

async function inOrder(table: string, time: string, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }[]>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) ORDER BY ${time}, id`, [ids]);
  return rows.map((row) => row.id);
}

describe('keyset positions to the microsecond', () => {
  it('PostgreSQL reads the timestamp literal back to the same microsecond', async () => {
    const micros = parseDateTime('2030-09-01T10:00:00.123457Z')!;
    const [row] = await db.query<{ back: string }[]>(`SELECT (extract(epoch from $1::timestamptz) * 1000000)::bigint::text AS back`, [
      toTimestampLiteral(micros),
    ]);
    expect(BigInt(row.back)).toBe(micros);
  });

  it.each([1, 2, 3])('walks appointments within one millisecond, %i per page', async (limit) => {
    // One staff member each: starts this close together would overlap otherwise.
    const salon = await seed({
      members: [],
      services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 100 }],
      staff: STAMPS.map((_, i) => ({ ref: `s${i}`, name: `Staff ${i}` })),
      clients: [{ ref: 'joao', name: 'João Silva', consent: true }],
      appointments: STAMPS.map((startAt, i) => ({ ref: `a${i}`, staff: `s${i}`, service: 'cut', client: 'joao', startAt })),
    });
    const businessId = salon.id;
    const ids = STAMPS.map((_, i) => salon.appointments[`a${i}`]);
    const service = context.app.get(AppointmentReadsService);
    const query = { from: '2030-09-01T10:00:00.123Z', to: '2030-09-01T10:00:00.124001Z', limit };
    const walked = await walk((cursor) => service.list(businessId, { ...query, cursor }));
    expect(walked).toEqual(await inOrder('appointments', 'starts_at', ids));
  });

  it.each([1, 2, 3])('walks clients, payments and sales updated within one millisecond, %i per page', async (limit) => {
    const refs = STAMPS.map((_, i) => i);
    const salon = await seed({
      members: [],
      services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 100 }],
      staff: [{ ref: 'ana', name: 'Ana Costa' }],
      clients: STAMPS.map((updatedAt, i) => ({ ref: `c${i}`, name: `Client ${i}`, consent: true, updatedAt })),
      appointments: refs.map((i) => ({
        ref: `a${i}`,
        staff: 'ana',
        service: 'cut',
        client: `c${i}`,
        startAt: `2030-09-0${1 + (i % 8)}T0${i}:00:00Z`,
      })),
      payments: STAMPS.map((updatedAt, i) => ({
        ref: `p${i}`,
        appointment: `a${i}`,
        channel: 'IN_PERSON' as const,
        method: 'CARD' as const,
        status: 'PENDING' as const,
        amountCents: 100,
        updatedAt,
      })),
      sales: STAMPS.map((updatedAt, i) => ({
        ref: `s${i}`,
        number: i + 1,
        status: 'COMPLETED' as const,
        updatedAt,
        items: [{ type: 'SERVICE' as const, name: 'Cut', quantity: 1, unitPriceCents: 100 }],
      })),
    });
    const businessId = salon.id;
    const clients = refs.map((i) => salon.clients[`c${i}`]);
    const payments = refs.map((i) => salon.payments[`p${i}`]);
    const sales = refs.map((i) => salon.sales[`s${i}`]);
    const query = { limit, updatedSince: `${MILLISECOND}001Z` };
    // updatedSince is inclusive to the microsecond: the first stamp (…123000) is before it.
    const expected = async (table: string, ids: string[]) => (await inOrder(table, 'updated_at', ids)).slice(1);
    const clientReads = context.app.get(ClientReadsService);
    expect(await walk((cursor) => clientReads.list(businessId, { ...query, cursor }))).toEqual(await expected('clients', clients));
    const paymentReads = context.app.get(PaymentReadsService);
    expect(await walk((cursor) => paymentReads.list(businessId, { ...query, cursor }))).toEqual(await expected('payments', payments));
    const saleReads = context.app.get(SaleReadsService);
    expect(await walk((cursor) => saleReads.list(businessId, { ...query, cursor }))).toEqual(await expected('sales', sales));
  });
});
