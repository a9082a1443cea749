import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { NoticeEntity } from './notice.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One notice on its way to one subscribed endpoint. */
@Entity({ name: 'notice_deliveries' })
@Check('notice_deliveries_status_check', `status IN ('PENDING', 'DELIVERED', 'FAILED')`)
@Index('notice_deliveries_notice_endpoint_key', ['noticeId', 'endpointId'], { unique: true })
@Index('notice_deliveries_endpoint_status_idx', ['endpointId', 'status'])
// The worker's sweep looks for pending deliveries that are due.
@Index('notice_deliveries_pending_due_idx', ['nextAttemptAt', 'id'], { where: `status = 'PENDING'` })
// `admin webhook deliveries` lists a business's deliveries, newest first.
@Index('notice_deliveries_business_created_idx', ['businessId', 'createdAt'])
export class NoticeDeliveryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'notice_id', type: 'uuid' })
  noticeId: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @Column({ type: 'text', default: 'PENDING' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => NoticeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'notice_id' })
  notice?: NoticeEntity;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpointEntity;
}
