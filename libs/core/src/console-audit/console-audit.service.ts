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
  'oauth.connect',
  'oauth.revoke',
] as const;
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

/** Sign-ins, sign-outs and refused attempts (docs/design-record.md#d29), recorded by the console's sign-in services. */
export const SIGN_IN_ACTIONS = ['sign-in', 'sign-out', 'sign-in.refused'] as const;
export type SignInAction = (typeof SIGN_IN_ACTIONS)[number];

/**
 * What the admin command line changes for a business (docs/design-record.md#d29), recorded with
 * the actor `operator`: the console's own changes, and what only an operator does.
 */
export const OPERATOR_ACTIONS = [
  'key.create',
  'key.revoke',
  'key.api-version',
  'key.roll',
  'webhook.create',
  'webhook.rotate-secret',
  'webhook.enable',
  'webhook.redeliver',
  'sandbox.create',
  'sandbox.reset',
  'business.create',
  'business.plan',
  'business.settings',
  'member.add',
  'member.sign-in-link',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

export type AuditAction = ConsoleAction | SignInAction | OperatorAction;

/** The actor of the admin command line's entries. */
export const OPERATOR = 'operator';

export interface ConsoleChange {
  businessId: string;
  actorEmail: string;
  action: ConsoleAction;
  subject: string;
  address: string;
}

/** A sign-in, a sign-out or a refused attempt; a refused attempt may name no business and no one. */
export interface SignInEvent {
  businessId: string | null;
  actorEmail: string | null;
  action: SignInAction;
  subject: string;
  address: string;
}

/** How many entries the audit page shows, newest first. */
export const AUDIT_PAGE_SIZE = 200;

/**
 * The audit of the console (docs/design-record.md#d26, #d29): every change made in it or with the
 * admin command line, and every sign-in, sign-out and refused sign-in attempt, written once it
 * happened. The services that do the work record here, whoever calls them.
 */
@Injectable()
export class ConsoleAuditService {
  constructor(private readonly entries: ConsoleAuditRepository) {}

  async record(change: ConsoleChange): Promise<void> {
    await this.entries.insert({ id: newId(), ...change });
  }

  async recordSignIn(event: SignInEvent): Promise<void> {
    await this.entries.insert({ id: newId(), ...event });
  }

  /** A change made with the admin command line: by `operator`, from no client address. */
  async recordOperatorChange(businessId: string, action: OperatorAction, subject: string): Promise<void> {
    await this.entries.insert({ id: newId(), businessId, actorEmail: OPERATOR, action, subject, address: null });
  }

  latest(businessId: string): Promise<ConsoleAuditEntryEntity[]> {
    return this.entries.latest(businessId, AUDIT_PAGE_SIZE);
  }

  /** The refused sign-in attempts that name no business, newest first (an operator's view). */
  latestWithoutBusiness(): Promise<ConsoleAuditEntryEntity[]> {
    return this.entries.latestWithoutBusiness(AUDIT_PAGE_SIZE);
  }
}
