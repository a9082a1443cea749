import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { PaymentEntity } from '#database/entities/payment.entity.js';
import { defineStatement } from '#database/statement.js';

const INSERT_PAYMENT = defineStatement<
  [
    id: string,
    businessId: string,
    appointmentId: string,
    channel: string,
    method: string,
    status: string,
    isDeposit: boolean,
    amountCents: number,
    currency: string,
    paidAt: Date | null,
    refundCents: number,
    instrumentData: string | null,
    createdAt: Date,
    updatedAt: Date,
  ],
  { createdAt: Date; updatedAt: Date }
>({
  name: 'insert_payment',
  text: `INSERT INTO payments (id, business_id, appointment_id, channel, method, status, is_deposit, amount_cents, currency,
                      paid_at, refund_cents, instrument_data, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14)
RETURNING created_at AS "createdAt", updated_at AS "updatedAt"`,
});

const APPOINTMENT_EXISTS = defineStatement<[businessId: string, id: string], { exists: boolean }>({
  name: 'payment_appointment_exists',
  text: 'SELECT EXISTS (SELECT 1 FROM appointments WHERE business_id = $1 AND id = $2) AS exists',
});

@Injectable()
export class PaymentsRepository {
  constructor(private readonly database: Database) {}

  async insert(payment: PaymentEntity): Promise<void> {
    const stamped = await this.database.one(INSERT_PAYMENT, [
      payment.id,
      payment.businessId,
      payment.appointmentId,
      payment.channel,
      payment.method,
      payment.status,
      payment.isDeposit,
      payment.amountCents,
      payment.currency,
      payment.paidAt,
      payment.refundCents,
      payment.instrumentData === null ? null : JSON.stringify(payment.instrumentData),
      payment.createdAt,
      payment.updatedAt,
    ]);
    // The change clock's stamp (docs/design-record.md#d27), as the row holds it.
    Object.assign(payment, stamped);
  }

  /** Whether the appointment is one of this business's (a payment is always for one). */
  async appointmentExists(businessId: string, appointmentId: string): Promise<boolean> {
    return (await this.database.one(APPOINTMENT_EXISTS, [businessId, appointmentId])).exists;
  }
}
