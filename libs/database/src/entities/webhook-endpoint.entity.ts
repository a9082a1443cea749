import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { BusinessEntity } from './business.entity.js';

@Entity({ name: 'webhook_endpoints' })
@Index('webhook_endpoints_business_idx', ['businessId'])
@Check('webhook_endpoints_description_check', 'char_length(description) <= 200')
// The published versions (API_VERSIONS); publishing another takes a migration that replaces the check.
@Check('webhook_endpoints_api_version_check', `api_version IN ('1.2.0', '1.3.0', '1.4.0', '1.5.0')`)
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  /** A note for people: which integration this is. */
  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** whsec_…; kept readable because every delivery is signed with it. */
  @Column({ type: 'text' })
  secret: string;

  /** The secret before the last rotation, still signed with until previousSecretExpiresAt. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /**
   * The API version its notices are shaped for (docs/design-record.md#d22): the creating key's,
   * or the one its creator chose. No default: every insert names it.
   */
  @Column({ name: 'api_version', type: 'text' })
  apiVersion: ApiVersion;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** Start of the current run of failed deliveries; five days of it disables the endpoint. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'created_by_member_id', type: 'uuid', nullable: true })
  createdByMemberId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
