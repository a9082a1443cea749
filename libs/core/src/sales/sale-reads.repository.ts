import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SaleItemType } from '#database/entities/sale-item.entity.js';
import type { SaleStatus } from '#database/entities/sale.entity.js';
import { managerFor } from '#database/transaction-context.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import { positionOf, SqlParams, type SqlQuery } from '../pagination/keyset-sql.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { updateOrderTail } from '../pagination/update-order.js';
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

// Every returned column by name: internal_note (and the items' cost_cents) are never selected.
const SELECT_SALES = `
SELECT s.id, s.number, s.status, s.client_id, s.appointment_id, s.payment_pending, s.subtotal_cents,
       s.discount_cents, s.total_cents, s.currency, s.created_at, s.updated_at,
       ${positionOf('s.updated_at')} AS position
  FROM sales s`;

@Injectable()
export class SaleReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Sales after the request's position in (updated_at, id) order, from `since` (inclusive) when given, with their items. */
  async listPage(
    businessId: string,
    since: EpochMicros | null,
    request: PageRequest,
    manager?: EntityManager,
  ): Promise<PositionedRow<SaleRecord>[]> {
    const m = managerFor(this.dataSource, manager);
    const { sql, params } = this.pageQuery(businessId, since, request);
    const rows: SaleRow[] = await m.query(sql, params);
    const items = await this.itemsOf(businessId, rows.map((row) => row.id), m);
    return rows.map((row) => ({
      record: toRecord(row, items.get(row.id) ?? []),
      position: { micros: BigInt(row.position), id: row.id },
    }));
  }

  /** The SQL listPage runs for the sales themselves. */
  pageQuery(businessId: string, since: EpochMicros | null, request: PageRequest): SqlQuery {
    const params = new SqlParams();
    return { sql: `${SELECT_SALES}${updateOrderTail('s', businessId, since, request, params)}`, params: params.values };
  }

  async findById(businessId: string, saleId: string, manager?: EntityManager): Promise<SaleRecord | null> {
    const m = managerFor(this.dataSource, manager);
    const rows: SaleRow[] = await m.query(
      `${SELECT_SALES}
 WHERE s.business_id = $1 AND s.id = $2`,
      [businessId, saleId],
    );
    if (rows.length === 0) return null;
    const items = await this.itemsOf(businessId, [saleId], m);
    return toRecord(rows[0], items.get(saleId) ?? []);
  }

  /** The items of several sales in one query, each sale's in its order (position). */
  private async itemsOf(
    businessId: string,
    saleIds: string[],
    manager: EntityManager,
  ): Promise<Map<string, SaleItemRecord[]>> {
    const bySale = new Map<string, SaleItemRecord[]>();
    if (saleIds.length === 0) return bySale;
    const rows: SaleItemRow[] = await manager.query(
      `SELECT i.sale_id, i.id, i.type, i.name, i.service_id, i.quantity, i.unit_price_cents, i.discount_cents, i.total_cents
         FROM sale_items i
        WHERE i.business_id = $1 AND i.sale_id = ANY($2::uuid[])
        ORDER BY i.sale_id, i.position, i.id`,
      [businessId, saleIds],
    );
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
