import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';
import { inBatches } from '#database/in-batches.js';
import { defineStatement } from '#database/statement.js';

/** All the rows in one jsonb parameter: one statement, whatever their count. */
const INSERT_OUTBOUND_EMAILS = defineStatement<[emails: string]>({
  name: 'insert_outbound_emails',
  text: `INSERT INTO outbound_emails (id, business_id, appointment_id, kind, audience, recipient, sender_name, reply_to, subject,
                                    body_text, calendar, calendar_event, calendar_method, created_at, relayed_at, sent_at,
                                    attempts, last_error)
       SELECT id, business_id, appointment_id, kind, audience, recipient, sender_name, reply_to, subject,
              body_text, calendar, calendar_event, calendar_method, created_at, relayed_at, sent_at, attempts, last_error
         FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, business_id uuid, appointment_id uuid, kind text, audience text,
              recipient text, sender_name text, reply_to text, subject text, body_text text, calendar text,
              calendar_event jsonb, calendar_method text, created_at timestamptz, relayed_at timestamptz,
              sent_at timestamptz, attempts integer, last_error text)`,
});

// SKIP LOCKED lets several workers relay at once without waiting for or repeating each other.
export const LOCK_UNRELAYED = defineStatement<[limit: number], { id: string }>({
  name: 'lock_unrelayed_emails',
  text: 'SELECT id FROM outbound_emails WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED',
});

const MARK_RELAYED = defineStatement<[ids: string[], at: Date]>({
  name: 'mark_emails_relayed',
  text: 'UPDATE outbound_emails SET relayed_at = $2 WHERE id = ANY($1::uuid[])',
});

/** An e-mail to send, and whether its business is a sandbox, whose e-mails are kept, never sent (docs/design-record.md#d19). */
export type OutboundEmailToSend = OutboundEmailEntity & { sandbox: boolean };

const EMAIL_BY_ID = defineStatement<[id: string], OutboundEmailToSend>({
  name: 'outbound_email_by_id',
  text: `SELECT e.id, e.business_id AS "businessId", e.appointment_id AS "appointmentId", e.kind, e.audience, e.recipient,
       e.sender_name AS "senderName", e.reply_to AS "replyTo", e.subject, e.body_text AS "bodyText", e.calendar,
       e.calendar_event AS "calendarEvent", e.calendar_method AS "calendarMethod", e.created_at AS "createdAt",
       e.relayed_at AS "relayedAt", e.sent_at AS "sentAt", e.attempts, e.last_error AS "lastError",
       b.live_business_id IS NOT NULL AS sandbox
  FROM outbound_emails e JOIN businesses b ON b.id = e.business_id WHERE e.id = $1`,
});

const MARK_SENT = defineStatement<[id: string, at: Date]>({
  name: 'mark_email_sent',
  text: 'UPDATE outbound_emails SET sent_at = $2, attempts = attempts + 1 WHERE id = $1',
});

const RECORD_FAILURE = defineStatement<[id: string, error: string]>({
  name: 'record_email_failure',
  text: 'UPDATE outbound_emails SET last_error = $2, attempts = attempts + 1 WHERE id = $1',
});

export const PURGE_BATCH = defineStatement<[cutoff: Date, batchSize: number]>({
  name: 'purge_outbound_emails',
  text: 'DELETE FROM outbound_emails WHERE id IN (SELECT id FROM outbound_emails WHERE created_at < $1 ORDER BY created_at LIMIT $2)',
});

// Relayed and not sent, with sends left: the e-mails whose job should exist. Keyset by (created_at, id).
export const UNSENT_RELAYED = defineStatement<
  [maxAttempts: number, afterTime: Date | null, afterId: string | null, limit: number],
  UnsentEmail
>({
  name: 'unsent_relayed_emails',
  text: `SELECT id, created_at AS "createdAt" FROM outbound_emails
 WHERE sent_at IS NULL AND relayed_at IS NOT NULL AND attempts < $1
   AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
 ORDER BY created_at, id
 LIMIT $4`,
});

/** An e-mail handed to the queue and not sent yet, with the key its listing pages on. */
export interface UnsentEmail {
  id: string;
  createdAt: Date;
}

/** The e-mail outbox. Relay and sending span every business, so those methods take no business id. */
@Injectable()
export class OutboundEmailsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Queues e-mails; call it inside the transaction of the change they report. Every appointment
   * write runs it: plain SQL, all rows in one parameter, cheaper than TypeORM's insert builder.
   */
  async insert(emails: OutboundEmailEntity[]): Promise<void> {
    if (emails.length === 0) return;
    await this.database.execute(INSERT_OUTBOUND_EMAILS, [
      JSON.stringify(
        emails.map((email) => ({
          id: email.id,
          business_id: email.businessId,
          appointment_id: email.appointmentId,
          kind: email.kind,
          audience: email.audience,
          recipient: email.recipient,
          sender_name: email.senderName,
          reply_to: email.replyTo,
          subject: email.subject,
          body_text: email.bodyText,
          calendar: email.calendar,
          calendar_event: email.calendarEvent,
          calendar_method: email.calendarMethod,
          created_at: email.createdAt,
          relayed_at: email.relayedAt,
          sent_at: email.sentAt,
          attempts: email.attempts,
          last_error: email.lastError,
        })),
      ),
    ]);
  }

  /** Ids of the oldest e-mails not yet handed to the queue, locked until the transaction ends. */
  async lockUnrelayed(limit: number): Promise<string[]> {
    const rows = await this.database.rows(LOCK_UNRELAYED, [limit]);
    return rows.map((row) => row.id);
  }

  async markRelayed(ids: string[], at: Date): Promise<void> {
    if (ids.length > 0) await this.database.execute(MARK_RELAYED, [ids, at]);
  }

  findById(id: string): Promise<OutboundEmailToSend | null> {
    return this.database.maybeOne(EMAIL_BY_ID, [id]);
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.database.execute(MARK_SENT, [id, at]);
  }

  async recordFailure(id: string, error: string): Promise<void> {
    await this.database.execute(RECORD_FAILURE, [id, error]);
  }

  /**
   * The e-mails relayed to the queue and not sent, with fewer than `maxAttempts` sends made, after
   * `after` in (created_at, id) order: their jobs should be queued (or running) unless Redis lost them.
   */
  findUnsentRelayed(maxAttempts: number, after: UnsentEmail | null, limit: number): Promise<UnsentEmail[]> {
    return this.database.rows(UNSENT_RELAYED, [maxAttempts, after?.createdAt ?? null, after?.id ?? null, limit]);
  }

  /** Deletes e-mails created before `cutoff`, sent or not, in batches (docs/design-record.md#d18). Returns how many. */
  purgeCreatedBefore(cutoff: Date, batchSize = 1000): Promise<number> {
    return inBatches(batchSize, (size) => this.database.execute(PURGE_BATCH, [cutoff, size]));
  }
}
