import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PaymentChannel, PaymentMethod, PaymentStatus } from '#database/entities/payment.entity.js';
import { managerFor } from '#database/transaction-context.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import { positionOf, SqlParams, type SqlQuery } from '../pagination/keyset-sql.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { updateOrderTail } from '../pagination/update-order.js';
import type { PaymentRecord } from './payment-record.js';

interface PaymentRow {
  id: string;
  appointment_id: string;
  channel: PaymentChannel;
  method: PaymentMethod;
  status: PaymentStatus;
  is_deposit: boolean;
  amount_cents: number;
  currency: string;
  paid_at: Date | null;
  refund_cents: number;
  created_at: Date;
  updated_at: Date;
  position: string;
}

// Every returned column by name: instrument_data is never selected.
const SELECT_PAYMENTS = `
SELECT p.id, p.appointment_id, p.channel, p.method, p.status, p.is_deposit, p.amount_cents, p.currency,
       p.paid_at, p.refund_cents, p.created_at, p.updated_at,
       ${positionOf('p.updated_at')} AS position
  FROM payments p`;

@Injectable()
export class PaymentReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Payments after the request's position in (updated_at, id) order, from `since` (inclusive) when given. */
  async listPage(
    businessId: string,
    since: EpochMicros | null,
    request: PageRequest,
    manager?: EntityManager,
  ): Promise<PositionedRow<PaymentRecord>[]> {
    const { sql, params } = this.pageQuery(businessId, since, request);
    const rows: PaymentRow[] = await managerFor(this.dataSource, manager).query(sql, params);
    return rows.map((row) => ({ record: toRecord(row), position: { micros: BigInt(row.position), id: row.id } }));
  }

  /** The SQL listPage runs. */
  pageQuery(businessId: string, since: EpochMicros | null, request: PageRequest): SqlQuery {
    const params = new SqlParams();
    return { sql: `${SELECT_PAYMENTS}${updateOrderTail('p', businessId, since, request, params)}`, params: params.values };
  }

  async findById(businessId: string, paymentId: string, manager?: EntityManager): Promise<PaymentRecord | null> {
    const rows: PaymentRow[] = await managerFor(this.dataSource, manager).query(
      `${SELECT_PAYMENTS}
 WHERE p.business_id = $1 AND p.id = $2`,
      [businessId, paymentId],
    );
    return rows.length > 0 ? toRecord(rows[0]) : null;
  }
}

function toRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    appointmentId: row.appointment_id,
    channel: row.channel,
    method: row.method,
    status: row.status,
    isDeposit: row.is_deposit,
    amountCents: row.amount_cents,
    currency: row.currency,
    paidAt: row.paid_at,
    refundCents: row.refund_cents,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
