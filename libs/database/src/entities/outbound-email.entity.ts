import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AppointmentEntity } from './appointment.entity.js';
import { BusinessEntity } from './business.entity.js';

export const OUTBOUND_EMAIL_KINDS = ['APPOINTMENT_BOOKED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_CANCELLED'] as const;
export type OutboundEmailKind = (typeof OUTBOUND_EMAIL_KINDS)[number];
export const EMAIL_AUDIENCES = ['CLIENT', 'BUSINESS'] as const;
export type EmailAudience = (typeof EMAIL_AUDIENCES)[number];
export const CALENDAR_METHODS = ['REQUEST', 'CANCEL'] as const;
export type CalendarMethod = (typeof CALENDAR_METHODS)[number];

/**
 * The e-mail outbox (D10): one row per message and recipient, written in the transaction of the
 * change it reports and fully rendered there, so the worker only sends what was committed and a
 * mail failure can never undo the change.
 */
@Entity({ name: 'outbound_emails' })
@Check('outbound_emails_kind_check', `kind IN ('APPOINTMENT_BOOKED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_CANCELLED')`)
@Check('outbound_emails_audience_check', `audience IN ('CLIENT', 'BUSINESS')`)
@Check('outbound_emails_calendar_method_check', `calendar_method IN ('REQUEST', 'CANCEL')`)
@Index('outbound_emails_unrelayed_idx', ['createdAt'], { where: 'relayed_at IS NULL' })
@Index('outbound_emails_appointment_idx', ['appointmentId'])
export class OutboundEmailEntity {
  /** Also the id of its job in the `emails` queue. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'appointment_id', type: 'uuid' })
  appointmentId: string;

  @Column({ type: 'text' })
  kind: OutboundEmailKind;

  @Column({ type: 'text' })
  audience: EmailAudience;

  @Column({ type: 'text' })
  recipient: string;

  /** Display name of the sender (the business); the address is MAIL_FROM. */
  @Column({ name: 'sender_name', type: 'text' })
  senderName: string;

  @Column({ name: 'reply_to', type: 'text', nullable: true })
  replyTo: string | null;

  @Column({ type: 'text' })
  subject: string;

  @Column({ name: 'body_text', type: 'text' })
  bodyText: string;

  /** The iCalendar attachment (RFC 5545). */
  @Column({ type: 'text' })
  calendar: string;

  @Column({ name: 'calendar_method', type: 'text' })
  calendarMethod: CalendarMethod;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** When the relay handed it to the queue; null while waiting in the outbox. */
  @Column({ name: 'relayed_at', type: 'timestamptz', nullable: true })
  relayedAt: Date | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  /** Sending attempts made, failed or not. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** The error of the latest failed attempt; kept after a later success, for the record. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @ManyToOne(() => AppointmentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'appointment_id' })
  appointment?: AppointmentEntity;
}
