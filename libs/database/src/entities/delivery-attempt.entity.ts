import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { NoticeDeliveryEntity } from './notice-delivery.entity.js';

/** One HTTP attempt of a delivery: kept for operators and for replay decisions. */
@Entity({ name: 'delivery_attempts' })
@Index('delivery_attempts_delivery_idx', ['deliveryId', 'attemptedAt'])
// GET /webhook-endpoints/{id}/deliveries: an endpoint's attempts, newest first (docs/design-record.md#d17).
@Index('delivery_attempts_endpoint_idx', ['endpointId', 'attemptedAt', 'id'])
export class DeliveryAttemptEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  /** The delivery's endpoint, kept on the attempt so that an endpoint's log is read from one index. */
  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  /** Which attempt of its delivery this was, from 1; a redelivery starts again at 1. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  /** Null when no response came (timeout, refused address, connection error). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @ManyToOne(() => NoticeDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: NoticeDeliveryEntity;
}
