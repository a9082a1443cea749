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

  /** The address posted to, as it was then (an endpoint's address can be edited); null when nothing was sent. */
  @Column({ name: 'request_url', type: 'text', nullable: true })
  requestUrl: string | null;

  /** The request's headers as sent, in order, as [name, value] pairs; null when nothing was sent. */
  @Column({ name: 'request_headers', type: 'jsonb', nullable: true })
  requestHeaders: [string, string][] | null;

  /** The version the body was shaped for (docs/design-record.md#d22); null when nothing was sent. */
  @Column({ name: 'api_version', type: 'text', nullable: true })
  apiVersion: string | null;

  /** SHA-256 of the body as sent: a body rebuilt from the notice is shown only when it matches. */
  @Column({ name: 'request_body_sha256', type: 'bytea', nullable: true })
  requestBodySha256: Buffer | null;

  /** The body as sent, only when it cannot be rebuilt from the notice (a test ping's). */
  @Column({ name: 'request_body', type: 'text', nullable: true })
  requestBody: string | null;

  /** The first 1 KB of the answer's body, as text (never a test ping's, docs/design-record.md#d25). */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt: string | null;

  /** What kind of failure it was, as a code (attemptErrorText turns it into words); null when delivered. */
  @Column({ type: 'text', nullable: true })
  failure: string | null;

  @ManyToOne(() => NoticeDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: NoticeDeliveryEntity;
}
