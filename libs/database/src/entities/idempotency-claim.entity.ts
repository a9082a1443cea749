import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/**
 * An idempotent write that calls the network, under way (docs/design-record.md#d24): it runs
 * outside any transaction, so its Idempotency-Key is claimed by this row rather than held by a
 * transaction's lock. A duplicate that finds a live claim is told the first is still in progress.
 * A claim left by a process that stopped mid-write lapses at expires_at.
 */
@Entity({ name: 'idempotency_claims' })
@Index('idempotency_claims_expires_idx', ['expiresAt'])
export class IdempotencyClaimEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'text' })
  idempotencyKey: string;

  /** method + route + SHA-256 of the canonical JSON body, as in idempotency_records. */
  @Column({ type: 'text' })
  fingerprint: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @ManyToOne(() => ApiKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id' })
  apiKey?: ApiKeyEntity;
}
