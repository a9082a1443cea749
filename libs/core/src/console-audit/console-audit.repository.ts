import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { ConsoleAuditEntryEntity } from '#database/entities/console-audit-entry.entity.js';
import { defineStatement } from '#database/statement.js';

const INSERT_ENTRY = defineStatement<
  [id: string, businessId: string | null, actorEmail: string | null, action: string, subject: string, address: string | null]
>({
  name: 'insert_console_audit_entry',
  text: `INSERT INTO console_audit_entries (id, business_id, actor_email, action, subject, address, created_at)
VALUES ($1, $2, $3, $4, $5, $6, now())`,
});

const ENTRIES_OF = defineStatement<[businessId: string, limit: number], ConsoleAuditEntryEntity>({
  name: 'console_audit_entries_of_business',
  text: `SELECT id, business_id AS "businessId", actor_email AS "actorEmail", action, subject, address, created_at AS "createdAt"
  FROM console_audit_entries WHERE business_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
});

const ENTRIES_WITHOUT_BUSINESS = defineStatement<[limit: number], ConsoleAuditEntryEntity>({
  name: 'console_audit_entries_without_business',
  text: `SELECT id, business_id AS "businessId", actor_email AS "actorEmail", action, subject, address, created_at AS "createdAt"
  FROM console_audit_entries WHERE business_id IS NULL ORDER BY created_at DESC, id DESC LIMIT $1`,
});

@Injectable()
export class ConsoleAuditRepository {
  constructor(private readonly database: Database) {}

  async insert(entry: Omit<ConsoleAuditEntryEntity, 'createdAt' | 'business'>): Promise<void> {
    await this.database.execute(INSERT_ENTRY, [entry.id, entry.businessId, entry.actorEmail, entry.action, entry.subject, entry.address]);
  }

  latest(businessId: string, limit: number): Promise<ConsoleAuditEntryEntity[]> {
    return this.database.rows(ENTRIES_OF, [businessId, limit]);
  }

  latestWithoutBusiness(limit: number): Promise<ConsoleAuditEntryEntity[]> {
    return this.database.rows(ENTRIES_WITHOUT_BUSINESS, [limit]);
  }
}
