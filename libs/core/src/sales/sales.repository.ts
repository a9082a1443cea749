import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { SaleItemEntity } from '#database/entities/sale-item.entity.js';
import type { SaleEntity } from '#database/entities/sale.entity.js';
import { defineStatement } from '#database/statement.js';

const LOCK_SALE_NUMBERS = defineStatement<[businessId: string]>({
  name: 'lock_sale_numbers',
  text: `SELECT pg_advisory_xact_lock(hashtextextended('sales.number:' || $1, 0))`,
});

const NEXT_SALE_NUMBER = defineStatement<[businessId: string], { next: number }>({
  name: 'next_sale_number',
  text: 'SELECT COALESCE(MAX(number), 0) + 1 AS next FROM sales WHERE business_id = $1',
});

const INSERT_SALE = defineStatement<
  [
    id: string,
    businessId: string,
    number: number,
    status: string,
    clientId: string | null,
    appointmentId: string | null,
    paymentPending: boolean,
    subtotalCents: number,
    discountCents: number,
    totalCents: number,
    currency: string,
    internalNote: string | null,
    createdAt: Date,
    updatedAt: Date,
  ],
  { createdAt: Date; updatedAt: Date }
>({
  name: 'insert_sale',
  text: `INSERT INTO sales (id, business_id, number, status, client_id, appointment_id, payment_pending, subtotal_cents,
                   discount_cents, total_cents, currency, internal_note, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
RETURNING created_at AS "createdAt", updated_at AS "updatedAt"`,
});

// The items travel as one array per column: one statement, whatever their count.
const INSERT_SALE_ITEMS = defineStatement<
  [
    ids: string[],
    businessIds: string[],
    saleIds: string[],
    positions: number[],
    types: string[],
    names: string[],
    serviceIds: (string | null)[],
    quantities: number[],
    unitPricesCents: number[],
    discountsCents: number[],
    totalsCents: number[],
    costsCents: (number | null)[],
  ]
>({
  name: 'insert_sale_items',
  text: `INSERT INTO sale_items (id, business_id, sale_id, position, type, name, service_id, quantity, unit_price_cents,
                        discount_cents, total_cents, cost_cents)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::uuid[], $8::int[], $9::int[],
                     $10::int[], $11::int[], $12::int[])`,
});

const APPOINTMENT_EXISTS = defineStatement<[businessId: string, id: string], { exists: boolean }>({
  name: 'sale_appointment_exists',
  text: 'SELECT EXISTS (SELECT 1 FROM appointments WHERE business_id = $1 AND id = $2) AS exists',
});

@Injectable()
export class SalesRepository {
  constructor(private readonly database: Database) {}

  /**
   * The number the business's next sale gets. Takes a transaction-scoped lock per business, so
   * two sales recorded at once are numbered one after the other instead of clashing on
   * sales_business_number_key; hence it must run in a transaction (database.transactional), and
   * the sale must be inserted in it.
   */
  async nextNumber(businessId: string): Promise<number> {
    if (!this.database.inTransaction()) throw new Error('nextNumber needs the transaction the sale is inserted in.');
    await this.database.execute(LOCK_SALE_NUMBERS, [businessId]);
    const { next } = await this.database.one(NEXT_SALE_NUMBER, [businessId]);
    return Number(next);
  }

  /** Inserts a sale and its items, in item order. */
  async insert(sale: SaleEntity, items: SaleItemEntity[]): Promise<void> {
    const stamped = await this.database.one(INSERT_SALE, [
      sale.id,
      sale.businessId,
      sale.number,
      sale.status,
      sale.clientId,
      sale.appointmentId,
      sale.paymentPending,
      sale.subtotalCents,
      sale.discountCents,
      sale.totalCents,
      sale.currency,
      sale.internalNote,
      sale.createdAt,
      sale.updatedAt,
    ]);
    // The change clock's stamp (docs/design-record.md#d27), as the row holds it.
    Object.assign(sale, stamped);
    if (items.length === 0) return;
    await this.database.execute(INSERT_SALE_ITEMS, [
      items.map((item) => item.id),
      items.map((item) => item.businessId),
      items.map((item) => item.saleId),
      items.map((item) => item.position),
      items.map((item) => item.type),
      items.map((item) => item.name),
      items.map((item) => item.serviceId),
      items.map((item) => item.quantity),
      items.map((item) => item.unitPriceCents),
      items.map((item) => item.discountCents),
      items.map((item) => item.totalCents),
      items.map((item) => item.costCents),
    ]);
  }

  /** Whether the appointment is one of this business's. */
  async appointmentExists(businessId: string, appointmentId: string): Promise<boolean> {
    return (await this.database.one(APPOINTMENT_EXISTS, [businessId, appointmentId])).exists;
  }
}
