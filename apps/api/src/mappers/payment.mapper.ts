import type { PaymentRecord } from '#core/payments/payment-record.js';
import type { Schemas } from '#contract/contract-types.js';
import { isoTime } from './iso-time.js';

/** Every field, always present; never payment-instrument data. */
export function toPayment(payment: PaymentRecord): Schemas['Payment'] {
  return {
    id: payment.id,
    appointmentId: payment.appointmentId,
    channel: payment.channel,
    method: payment.method,
    status: payment.status,
    isDeposit: payment.isDeposit,
    amountCents: payment.amountCents,
    currency: payment.currency,
    paidAt: payment.paidAt === null ? null : isoTime(payment.paidAt),
    refundCents: payment.refundCents,
    createdAt: isoTime(payment.createdAt),
    updatedAt: isoTime(payment.updatedAt),
  };
}
