import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AppointmentEntity } from './appointment.entity.js';
import { BusinessEntity } from './business.entity.js';
import { ClientEntity } from './client.entity.js';

export const SALE_STATUSES = ['OPEN', 'COMPLETED', 'VOID'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

@Entity({ name: 'sales' })
@Check('sales_status_check', `status IN ('OPEN', 'COMPLETED', 'VOID')`)
@Index('sales_business_updated_idx', ['businessId', 'updatedAt', 'id'])
@Index('sales_business_number_key', ['businessId', 'number'], { unique: true })
export class SaleEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  /** Sequential per business, as printed on the receipt. */
  @Column({ type: 'integer' })
  number: number;

  @Column({ type: 'text' })
  status: SaleStatus;

  @Column({ name: 'client_id', type: 'uuid', nullable: true })
  clientId: string | null;

  @Column({ name: 'appointment_id', type: 'uuid', nullable: true })
  appointmentId: string | null;

  @Column({ name: 'payment_pending', type: 'boolean', default: false })
  paymentPending: boolean;

  @Column({ name: 'subtotal_cents', type: 'integer' })
  subtotalCents: number;

  @Column({ name: 'discount_cents', type: 'integer' })
  discountCents: number;

  @Column({ name: 'total_cents', type: 'integer' })
  totalCents: number;

  @Column({ type: 'text' })
  currency: string;

  /** Never returned by the API. */
  @Column({ name: 'internal_note', type: 'text', nullable: true })
  internalNote: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @ManyToOne(() => ClientEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  @ManyToOne(() => AppointmentEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'appointment_id' })
  appointment?: AppointmentEntity;
}
