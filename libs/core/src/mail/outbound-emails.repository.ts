import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';

const INSERT_OUTBOUND_EMAILS = {
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
};

/** The e-mail outbox. Relay and sending span every business, so those methods take no business id. */
@Injectable()
export class OutboundEmailsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return managerFor(this.dataSource, manager).getRepository(OutboundEmailEntity);
  }

  /**
   * Queues e-mails; call it inside the transaction of the change they report. Every appointment
   * write runs it: plain SQL, all rows in one parameter, cheaper than TypeORM's insert builder.
   */
  async insert(emails: OutboundEmailEntity[], manager?: EntityManager): Promise<void> {
    if (emails.length === 0) return;
    await preparedQuery(managerFor(this.dataSource, manager), INSERT_OUTBOUND_EMAILS, [
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

  /**
   * Ids of the oldest e-mails not yet handed to the queue, locked until the transaction ends.
   * SKIP LOCKED lets several workers relay at once without waiting for or repeating each other.
   */
  async lockUnrelayed(limit: number, manager?: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await managerFor(this.dataSource, manager).query(
      `SELECT id FROM outbound_emails WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  async markRelayed(ids: string[], at: Date, manager?: EntityManager): Promise<void> {
    if (ids.length > 0) await this.repo(manager).update({ id: In(ids) }, { relayedAt: at });
  }

  findById(id: string, manager?: EntityManager): Promise<OutboundEmailEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  async markSent(id: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { sentAt: at, attempts: () => 'attempts + 1' });
  }

  async recordFailure(id: string, error: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { lastError: error, attempts: () => 'attempts + 1' });
  }
}
