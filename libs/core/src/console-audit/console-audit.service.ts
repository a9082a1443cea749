import { Injectable } from '@nestjs/common';
import type { ConsoleAuditEntryEntity } from '#database/entities/console-audit-entry.entity.js';
import { newId } from '#database/new-id.js';
import { ConsoleAuditRepository } from './console-audit.repository.js';

/** The changes made in the console that the audit names (docs/design-record.md#d26). */
export const CONSOLE_ACTIONS = [
  'key.create',
  'key.revoke',
  'key.api-version',
  'key.roll',
  'webhook.create',
  'webhook.update',
  'webhook.test',
  'webhook.rotate-secret',
  'webhook.enable',
  'webhook.disable',
  'webhook.delete',
  'webhook.redeliver',
  'sandbox.create',
  'sandbox.reset',
] as const;
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

export interface ConsoleChange {
  businessId: string;
  actorEmail: string;
  action: ConsoleAction;
  subject: string;
  address: string;
}

/** How many entries the audit page shows, newest first. */
export const AUDIT_PAGE_SIZE = 200;

/** The audit of the console: every change made in it, written once it succeeded. */
@Injectable()
export class ConsoleAuditService {
  constructor(private readonly entries: ConsoleAuditRepository) {}

  async record(change: ConsoleChange): Promise<void> {
    await this.entries.insert({ id: newId(), ...change });
  }

  latest(businessId: string): Promise<ConsoleAuditEntryEntity[]> {
    return this.entries.latest(businessId, AUDIT_PAGE_SIZE);
  }
}
