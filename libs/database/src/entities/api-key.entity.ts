import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { BusinessEntity } from './business.entity.js';
import { MemberEntity } from './member.entity.js';

/** Where a key was made: `admin key create` (and fixtures, and `npm start`) or the owner's console. */
export type ApiKeyOrigin = 'admin' | 'console';

@Entity({ name: 'api_keys' })
@Index('api_keys_hash_key', ['keyHash'], { unique: true })
@Index('api_keys_business_prefix_idx', ['businessId', 'prefix'])
// The published versions (API_VERSIONS); publishing another takes a migration that replaces the check.
@Check('api_keys_api_version_check', `api_version IN ('1.2.0', '1.3.0', '1.4.0', '1.5.0')`)
@Check('api_keys_origin_check', `origin IN ('admin', 'console')`)
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  /** The OWNER or PARTNER who created the key. */
  @Column({ name: 'member_id', type: 'uuid' })
  memberId: string;

  @Column({ type: 'text' })
  name: string;

  /** The first 12 characters of the key, shown to identify it. */
  @Column({ type: 'text' })
  prefix: string;

  /** HMAC-SHA256(API_KEY_PEPPER, key), hex. The key itself is never stored. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  /** The API version the key is answered in (docs/design-record.md#d22); no default: every insert names it. */
  @Column({ name: 'api_version', type: 'text' })
  apiVersion: ApiVersion;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /**
   * When the key stops working, set when it is rolled (docs/design-record.md#d29); null: never. A key
   * past it is refused as a revoked key is, checked at each use, cached lookups included.
   */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** When a request last came with the key, to the minute: the lookup writes it at most once a minute. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  /** Where the key was made: the console's keys count against its hourly limit (docs/design-record.md#d28). */
  @Column({ type: 'text', default: 'admin' })
  origin: ApiKeyOrigin;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @ManyToOne(() => MemberEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'member_id' })
  member?: MemberEntity;
}
