import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { SaleItemType } from '#database/entities/sale-item.entity.js';
import type { SaleStatus } from '#database/entities/sale.entity.js';
import { defineStatement, type BoundStatement } from '#database/statement.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { pageStart, type PageStart } from '../pagination/page-start.js';
import type { SaleItemRecord, SaleRecord } from './sale-record.js';

interface SaleRow {
  id: string;
  number: number;
  status: SaleStatus;
  client_id: string | null;
  appointment_id: string | null;
  payment_pending: boolean;
  subtotal_cents: number;
  discount_cents: number;
  total_cents: number;
  currency: string;
  created_at: Date;
  updated_at: Date;
  position: string;
}

interface SaleItemRow {
  sale_id: string;
  id: string;
  type: SaleItemType;
  name: string;
  service_id: string | null;
  quantity: number;
  unit_price_cents: number;
  discount_cents: number;
  total_cents: number;
}

type SalePageParams = [businessId: string, ...start: PageStart, take: number];

// Every returned column by name: internal_note (and the items' cost_cents) are never selected.
const SALE_BY_ID = defineStatement<[businessId: string, id: string], SaleRow>({
  name: 'sale_by_id',
  text: `SELECT s.id, s.number, s.status, s.client_id, s.appointment_id, s.payment_pending, s.subtotal_cents,
       s.discount_cents, s.total_cents, s.currency, s.created_at, s.updated_at,
       (extract(epoch FROM s.updated_at) * 1000000)::bigint::text AS position
  FROM sales s
 WHERE s.business_id = $1 AND s.id = $2`,
});

/** A page in (updated_at, id) order: bounds of the (business_id, updated_at, id) index, no OFFSET, no sort. */
const SALE_PAGE = defineStatement<SalePageParams, SaleRow>({
  name: 'sale_page',
  text: `SELECT s.id, s.number, s.status, s.client_id, s.appointment_id, s.payment_pending, s.subtotal_cents,
       s.discount_cents, s.total_cents, s.currency, s.created_at, s.updated_at,
       (extract(epoch FROM s.updated_at) * 1000000)::bigint::text AS position
  FROM sales s
 WHERE s.business_id = $1 AND (s.updated_at, s.id) > ($2::timestamptz, $3::uuid)
 ORDER BY s.updated_at, s.id
 LIMIT $4`,
});

/** The items of several sales, each sale's in its order (position). */
const ITEMS_OF_SALES = defineStatement<[businessId: string, saleIds: string[]], SaleItemRow>({
  name: 'items_of_sales',
  text: `SELECT i.sale_id, i.id, i.type, i.name, i.service_id, i.quantity, i.unit_price_cents, i.discount_cents, i.total_cents
  FROM sale_items i
 WHERE i.business_id = $1 AND i.sale_id = ANY($2::uuid[])
 ORDER BY i.sale_id, i.position, i.id`,
});

@Injectable()
export class SaleReadsRepository {
  constructor(private readonly database: Database) {}

  /** Sales after the request's position in (updated_at, id) order, from `since` (inclusive) when given, with their items. */
  async listPage(businessId: string, since: EpochMicros | null, request: PageRequest): Promise<PositionedRow<SaleRecord>[]> {
    const { statement, params } = this.pageStatement(businessId, since, request);
    const rows = await this.database.rows(statement, params);
    const items = await this.itemsOf(
      businessId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      record: toRecord(row, items.get(row.id) ?? []),
      position: { micros: BigInt(row.position), id: row.id },
    }));
  }

  /** The statement listPage runs for the sales themselves. */
  pageStatement(businessId: string, since: EpochMicros | null, request: PageRequest): BoundStatement<SalePageParams, SaleRow> {
    return { statement: SALE_PAGE, params: [businessId, ...pageStart(request.after, since), request.take] };
  }

  async findById(businessId: string, saleId: string): Promise<SaleRecord | null> {
    const row = await this.database.maybeOne(SALE_BY_ID, [businessId, saleId]);
    if (!row) return null;
    const items = await this.itemsOf(businessId, [saleId]);
    return toRecord(row, items.get(saleId) ?? []);
  }

  /** The items of several sales in one query, each sale's in its order (position). */
  private async itemsOf(businessId: string, saleIds: string[]): Promise<Map<string, SaleItemRecord[]>> {
    const bySale = new Map<string, SaleItemRecord[]>();
    if (saleIds.length === 0) return bySale;
    const rows = await this.database.rows(ITEMS_OF_SALES, [businessId, saleIds]);
    for (const row of rows) {
      const items = bySale.get(row.sale_id) ?? [];
      items.push({
        id: row.id,
        type: row.type,
        name: row.name,
        serviceId: row.service_id,
        quantity: row.quantity,
        unitPriceCents: row.unit_price_cents,
        discountCents: row.discount_cents,
        totalCents: row.total_cents,
      });
      bySale.set(row.sale_id, items);
    }
    return bySale;
  }
}

function toRecord(row: SaleRow, items: SaleItemRecord[]): SaleRecord {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    clientId: row.client_id,
    appointmentId: row.appointment_id,
    paymentPending: row.payment_pending,
    items,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    totalCents: row.total_cents,
    currency: row.currency,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
