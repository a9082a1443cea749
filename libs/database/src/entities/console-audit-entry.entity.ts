import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';

/**
 * One change made in the owner's console (docs/design-record.md#d26): who made it, what it was,
 * when, and from which address. Written by the console after the change succeeded; never updated.
 */
@Entity({ name: 'console_audit_entries' })
@Index('console_audit_entries_business_idx', ['businessId', 'createdAt'])
export class ConsoleAuditEntryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  /** The signed-in member's e-mail, lower-cased, as the members table has it. */
  @Column({ name: 'actor_email', type: 'text' })
  actorEmail: string;

  /** What was done, such as `key.create` or `webhook.rotate-secret`. */
  @Column({ type: 'text' })
  action: string;

  /** What it was done to, in words (a key's name and prefix, an endpoint's address); never a secret. */
  @Column({ type: 'text' })
  subject: string;

  /** The client's address as the API resolves it (TRUSTED_PROXIES). */
  @Column({ type: 'text' })
  address: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
