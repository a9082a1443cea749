import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/** A write's stored response, replayed for the same key and body within 24 hours. */
@Entity({ name: 'idempotency_records' })
@Index('idempotency_records_key', ['apiKeyId', 'idempotencyKey'], { unique: true })
@Index('idempotency_records_expires_idx', ['expiresAt'])
export class IdempotencyRecordEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey: string;

  /** method + route + SHA-256 of the canonical JSON body. */
  @Column({ type: 'text' })
  fingerprint: string;

  @Column({ name: 'response_status', type: 'integer' })
  responseStatus: number;

  /** The response body exactly as first sent, so a replay is byte for byte. */
  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;

  @Column({ name: 'response_content_type', type: 'text' })
  responseContentType: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @ManyToOne(() => ApiKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id' })
  apiKey?: ApiKeyEntity;
}
