import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';
import { managerFor } from '#database/transaction-context.js';

/** The e-mail outbox. Relay and sending span every business, so those methods take no business id. */
@Injectable()
export class OutboundEmailsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return managerFor(this.dataSource, manager).getRepository(OutboundEmailEntity);
  }

  /** Queues e-mails; call it inside the transaction of the change they report. */
  async insert(emails: OutboundEmailEntity[], manager?: EntityManager): Promise<void> {
    if (emails.length > 0) await this.repo(manager).insert(emails);
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
