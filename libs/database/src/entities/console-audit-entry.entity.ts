import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

/**
 * One entry of the console's audit (docs/design-record.md#d26, #d29): a change made in the console
 * or with the admin command line, a sign-in, a sign-out or a refused sign-in attempt; who, what,
 * when, and from which address. Written once the thing happened; never updated.
 */
@Entity({ name: 'console_audit_entries' })
@Index('console_audit_entries_business_idx', ['businessId', 'createdAt'])
// Refused sign-ins that name no business (docs/design-record.md#d29), found by when.
@Index('console_audit_entries_unattached_idx', ['createdAt'], { where: '"business_id" IS NULL' })
export class ConsoleAuditEntryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Null for a refused sign-in attempt that names no business (an unknown link, an e-mail no owner's or partner's). */
  @Column({ name: 'business_id', type: 'uuid', nullable: true })
  businessId: string | null;

  /**
   * The member's e-mail, lower-cased, as the members table has it (or as typed, for a refused
   * attempt); `operator` for the admin command line; null when nobody is known (an unknown link).
   */
  @Column({ name: 'actor_email', type: 'text', nullable: true })
  actorEmail: string | null;

  /** What was done, such as `key.create` or `webhook.rotate-secret`. */
  @Column({ type: 'text' })
  action: string;

  /** What it was done to, in words (a key's name and prefix, an endpoint's address); never a secret. */
  @Column({ type: 'text' })
  subject: string;

  /** The client's address as the API resolves it (TRUSTED_PROXIES); null for the admin command line. */
  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
