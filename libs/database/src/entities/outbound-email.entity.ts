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
 * An appointment's calendar event as the outbox stores it: everything its .ics says, in JSON. The
 * worker writes the .ics (RFC 5545) when it sends, off the request path of the write.
 */
export interface CalendarEventData {
  method: CalendarMethod;
  /**
   * The same for every appointment of one reschedule chain, so that a calendar moves (or
   * removes) the event it already has instead of adding another.
   */
  uid: string;
  /** Grows with every change of the event: the reschedule count, plus one for a cancel. */
  sequence: number;
  /** RFC 3339, UTC. */
  start: string;
  end: string;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  title: string;
  description: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string | null };
}

/**
 * The e-mail outbox (docs/design-record.md#d10): one row per message and recipient, written in the transaction of the
 * change it reports with its text and calendar event as they stand at that change, so the worker
 * only sends what was committed and a mail failure can never undo the change.
 */
@Entity({ name: 'outbound_emails' })
@Check('outbound_emails_kind_check', `kind IN ('APPOINTMENT_BOOKED', 'APPOINTMENT_RESCHEDULED', 'APPOINTMENT_CANCELLED')`)
@Check('outbound_emails_audience_check', `audience IN ('CLIENT', 'BUSINESS')`)
@Check('outbound_emails_calendar_method_check', `calendar_method IN ('REQUEST', 'CANCEL')`)
@Check('outbound_emails_calendar_check', `calendar IS NOT NULL OR calendar_event IS NOT NULL`)
@Index('outbound_emails_unrelayed_idx', ['createdAt'], { where: 'relayed_at IS NULL' })
@Index('outbound_emails_appointment_idx', ['appointmentId'])
// The 30-day purge deletes by age across businesses (docs/design-record.md#d18).
@Index('outbound_emails_created_idx', ['createdAt'])
// The e-mail sweep looks for unsent e-mails whose job Redis may have lost.
@Index('outbound_emails_unsent_idx', ['createdAt', 'id'], { where: 'sent_at IS NULL' })
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

  /**
   * The iCalendar attachment (RFC 5545) as rows queued before calendar_event existed hold it;
   * null in newer rows, whose .ics the worker writes from calendar_event.
   */
  @Column({ type: 'text', nullable: true })
  calendar: string | null;

  /** The calendar event of the attachment. */
  @Column({ name: 'calendar_event', type: 'jsonb', nullable: true })
  calendarEvent: CalendarEventData | null;

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
