import type { PaymentEntity } from '#database/entities/payment.entity.js';

/** A payment as the API may show it: without the payment-instrument data, which is never selected. */
export type PaymentRecord = Pick<
  PaymentEntity,
  | 'id'
  | 'appointmentId'
  | 'channel'
  | 'method'
  | 'status'
  | 'isDeposit'
  | 'amountCents'
  | 'currency'
  | 'paidAt'
  | 'refundCents'
  | 'createdAt'
  | 'updatedAt'
>;
