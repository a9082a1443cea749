import { Check, Column, Entity, Exclusion, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';
import { ClientEntity } from './client.entity.js';
import { ServiceEntity } from './service.entity.js';
import { StaffEntity } from './staff.entity.js';

export const APPOINTMENT_STATUSES = ['PENDING', 'CONFIRMED', 'RESCHEDULED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
/** Statuses that hold a slot; the exclusion constraint covers exactly these. */
export const ACTIVE_APPOINTMENT_STATUSES: readonly AppointmentStatus[] = ['PENDING', 'CONFIRMED'];

/**
 * Active appointments of one staff member never overlap: see appointments_no_overlap below.
 */
@Entity({ name: 'appointments' })
@Check('appointments_status_check', `status IN ('PENDING', 'CONFIRMED', 'RESCHEDULED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')`)
@Check('appointments_interval_check', `starts_at < ends_at`)
// No double booking under any concurrency: the database refuses two active appointments of one
// staff member whose [start, end) intervals overlap (needs the btree_gist extension).
@Exclusion(
  'appointments_no_overlap',
  `USING gist ("staff_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&) WHERE ("status" IN ('PENDING', 'CONFIRMED'))`,
)
@Index('appointments_business_start_idx', ['businessId', 'startsAt', 'id'])
@Index('appointments_business_staff_start_idx', ['businessId', 'staffId', 'startsAt', 'id'])
@Index('appointments_business_status_start_idx', ['businessId', 'status', 'startsAt', 'id'])
@Index('appointments_business_updated_idx', ['businessId', 'updatedAt', 'id'])
@Index('appointments_business_client_start_idx', ['businessId', 'clientId', 'startsAt', 'id'])
@Index('appointments_business_client_updated_idx', ['businessId', 'clientId', 'updatedAt', 'id'])
@Index('appointments_code_key', ['businessId', 'code'], { unique: true })
// rescheduledToId is read through it: the appointment whose previous one a row is (docs/design-record.md#d23).
@Index('appointments_rescheduled_from_idx', ['rescheduledFromId'], { where: 'rescheduled_from_id IS NOT NULL' })
export class AppointmentEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  /** Null when the service was deleted after booking; its name is kept in serviceName. */
  @Column({ name: 'service_id', type: 'uuid', nullable: true })
  serviceId: string | null;

  @Column({ name: 'service_name', type: 'text' })
  serviceName: string;

  @Column({ name: 'client_id', type: 'uuid' })
  clientId: string;

  @Column({ type: 'text' })
  status: AppointmentStatus;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt: Date;

  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt: Date;

  @Column({ name: 'duration_min', type: 'integer' })
  durationMin: number;

  @Column({ name: 'price_cents', type: 'integer' })
  priceCents: number;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  source: string;

  @Column({ name: 'location_id', type: 'uuid', nullable: true })
  locationId: string | null;

  @Column({ name: 'rescheduled_from_id', type: 'uuid', nullable: true })
  rescheduledFromId: string | null;

  /** The partner's own data (docs/design-record.md#d23); `{}` when none. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  /** The code the client shows at the desk: never returned by the API. */
  @Column({ type: 'text' })
  code: string;

  /** Never returned by the API. */
  @Column({ name: 'cancellation_reason', type: 'text', nullable: true })
  cancellationReason: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @ManyToOne(() => StaffEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'staff_id' })
  staff?: StaffEntity;

  @ManyToOne(() => ServiceEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'service_id' })
  service?: ServiceEntity;

  @ManyToOne(() => ClientEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  @ManyToOne(() => AppointmentEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'rescheduled_from_id' })
  rescheduledFrom?: AppointmentEntity;
}
