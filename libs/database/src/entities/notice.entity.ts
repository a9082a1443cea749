import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BusinessEntity } from './business.entity.js';
import type { AppointmentStatus } from './appointment.entity.js';
import type { OutboundEmailKind } from './outbound-email.entity.js';

/**
 * What the worker needs, beyond the rows, to write an appointment change's e-mails: which change
 * it was and the appointment's status right after it (a booking's e-mail says whether it waits
 * for confirmation, whatever happened to the appointment since).
 */
export interface NoticeEmails {
  kind: OutboundEmailKind;
  status: AppointmentStatus;
  /**
   * `false` when the write asked not to e-mail the client (`notifyClient: false`, docs/design-record.md#d23):
   * the business's e-mail still goes. Absent (the rows written before 1.4.0 too) means the client is e-mailed.
   */
  notifyClient?: false;
}

/** The transactional outbox: one row per change notice, committed with the change itself. */
@Entity({ name: 'notices' })
@Index('notices_unrelayed_idx', ['createdAt'], { where: 'relayed_at IS NULL' })
// The event log (docs/design-record.md#d18) pages a business's notices by (created_at, id), newest first.
@Index('notices_business_created_idx', ['businessId', 'createdAt', 'id'])
// The 30-day purge deletes by age across businesses.
@Index('notices_created_idx', ['createdAt'])
export class NoticeEntity {
  /** The notice id receivers deduplicate on. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ type: 'text' })
  type: string;

  /** The notice body exactly as signed and sent. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /**
   * The e-mails the worker writes for this change when it relays it (docs/design-record.md#write-path); null when it
   * has none, and on rows from before 1.3.0's one outbox, whose e-mails were written with them.
   */
  @Column({ type: 'jsonb', nullable: true })
  emails: NoticeEmails | null;

  /** When the relay handed it to the queue; null while waiting in the outbox. */
  @Column({ name: 'relayed_at', type: 'timestamptz', nullable: true })
  relayedAt: Date | null;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;
}
