import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { PaymentChannel, PaymentMethod, PaymentStatus } from '#database/entities/payment.entity.js';
import { defineStatement, type BoundStatement } from '#database/statement.js';
import type { EpochMicros } from '../pagination/epoch-micros.js';
import type { PageRequest, PositionedRow } from '../pagination/page.js';
import { pageStart, type PageStart } from '../pagination/page-start.js';
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

type PaymentPageParams = [businessId: string, ...start: PageStart, take: number];

// Every returned column by name: instrument_data is never selected.
const PAYMENT_BY_ID = defineStatement<[businessId: string, id: string], PaymentRow>({
  name: 'payment_by_id',
  text: `SELECT p.id, p.appointment_id, p.channel, p.method, p.status, p.is_deposit, p.amount_cents, p.currency,
       p.paid_at, p.refund_cents, p.created_at, p.updated_at,
       (extract(epoch FROM p.updated_at) * 1000000)::bigint::text AS position
  FROM payments p
 WHERE p.business_id = $1 AND p.id = $2`,
});

/** A page in (updated_at, id) order: bounds of the (business_id, updated_at, id) index, no OFFSET, no sort. */
const PAYMENT_PAGE = defineStatement<PaymentPageParams, PaymentRow>({
  name: 'payment_page',
  text: `SELECT p.id, p.appointment_id, p.channel, p.method, p.status, p.is_deposit, p.amount_cents, p.currency,
       p.paid_at, p.refund_cents, p.created_at, p.updated_at,
       (extract(epoch FROM p.updated_at) * 1000000)::bigint::text AS position
  FROM payments p
 WHERE p.business_id = $1 AND (p.updated_at, p.id) > ($2::timestamptz, $3::uuid)
 ORDER BY p.updated_at, p.id
 LIMIT $4`,
});

@Injectable()
export class PaymentReadsRepository {
  constructor(private readonly database: Database) {}

  /** Payments after the request's position in (updated_at, id) order, from `since` (inclusive) when given. */
  async listPage(businessId: string, since: EpochMicros | null, request: PageRequest): Promise<PositionedRow<PaymentRecord>[]> {
    const { statement, params } = this.pageStatement(businessId, since, request);
    const rows = await this.database.rows(statement, params);
    return rows.map((row) => ({ record: toRecord(row), position: { micros: BigInt(row.position), id: row.id } }));
  }

  /** The statement listPage runs. */
  pageStatement(businessId: string, since: EpochMicros | null, request: PageRequest): BoundStatement<PaymentPageParams, PaymentRow> {
    return { statement: PAYMENT_PAGE, params: [businessId, ...pageStart(request.after, since), request.take] };
  }

  async findById(businessId: string, paymentId: string): Promise<PaymentRecord | null> {
    const row = await this.database.maybeOne(PAYMENT_BY_ID, [businessId, paymentId]);
    return row ? toRecord(row) : null;
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
