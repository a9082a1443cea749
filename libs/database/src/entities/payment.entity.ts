import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AppointmentEntity } from './appointment.entity.js';
import { BusinessEntity } from './business.entity.js';

export const PAYMENT_CHANNELS = ['IN_PERSON', 'ONLINE'] as const;
export const PAYMENT_METHODS = ['CASH', 'CARD', 'PIX', 'MBWAY', 'BANK_TRANSFER', 'VOUCHER', 'OTHER'] as const;
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'CANCELLED'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

@Entity({ name: 'payments' })
@Check('payments_channel_check', `channel IN ('IN_PERSON', 'ONLINE')`)
@Check('payments_method_check', `method IN ('CASH', 'CARD', 'PIX', 'MBWAY', 'BANK_TRANSFER', 'VOUCHER', 'OTHER')`)
@Check('payments_status_check', `status IN ('PENDING', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'CANCELLED')`)
@Check('payments_amount_check', `amount_cents >= 0 AND refund_cents >= 0`)
@Index('payments_business_updated_idx', ['businessId', 'updatedAt', 'id'])
@Index('payments_appointment_idx', ['appointmentId'])
export class PaymentEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'appointment_id', type: 'uuid' })
  appointmentId: string;

  @Column({ type: 'text' })
  channel: PaymentChannel;

  @Column({ type: 'text' })
  method: PaymentMethod;

  @Column({ type: 'text' })
  status: PaymentStatus;

  @Column({ name: 'is_deposit', type: 'boolean', default: false })
  isDeposit: boolean;

  @Column({ name: 'amount_cents', type: 'integer' })
  amountCents: number;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  @Column({ name: 'refund_cents', type: 'integer', default: 0 })
  refundCents: number;

  /** Payment-instrument data (card brand, last digits, provider reference): never returned. */
  @Column({ name: 'instrument_data', type: 'jsonb', nullable: true })
  instrumentData: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @ManyToOne(() => AppointmentEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'appointment_id' })
  appointment?: AppointmentEntity;
}
