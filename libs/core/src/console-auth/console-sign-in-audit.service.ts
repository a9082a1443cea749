import { Injectable } from '@nestjs/common';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { managesIntegrations } from '../businesses/member-rights.js';
import { ConsoleAuditService, type SignInAction } from '../console-audit/console-audit.service.js';

/** Why a sign-in was refused, as the audit words it and the sign-in page tells it. */
export type SignInRefusal = 'malformed-link' | 'expired-link' | 'used-or-unknown-link' | 'not-a-member';

const REFUSALS: Readonly<Record<SignInRefusal, string>> = {
  'malformed-link': 'a sign-in link that is not whole (cut or altered)',
  'expired-link': 'a sign-in link that had expired',
  'used-or-unknown-link': 'a sign-in link already used, or never sent',
  'not-a-member': 'a sign-in link asked for an e-mail that is no owner or partner',
};

/**
 * Sign-ins, sign-outs and refused sign-in attempts in the audit (docs/design-record.md#d29), beside
 * the console's changes: one entry in each business the e-mail belongs to (a sign-in, in each it
 * manages), so that its owners see them; one without a business when the e-mail belongs to none
 * or is not known (an unknown link).
 */
@Injectable()
export class ConsoleSignInAudit {
  constructor(
    private readonly members: BusinessesRepository,
    private readonly audit: ConsoleAuditService,
  ) {}

  async signedIn(email: string, address: string): Promise<void> {
    await this.record('sign-in', email, 'signed in to the console', address, true);
  }

  async signedOut(email: string, address: string): Promise<void> {
    await this.record('sign-out', email, 'signed out of the console', address, true);
  }

  /** `email`: the link's or the one typed, lower-cased; null when the link names nobody known. */
  async refused(refusal: SignInRefusal, email: string | null, address: string): Promise<void> {
    await this.record('sign-in.refused', email, REFUSALS[refusal], address, false);
  }

  private async record(action: SignInAction, email: string | null, subject: string, address: string, managersOnly: boolean) {
    const memberships = email === null ? [] : await this.members.membershipsByEmail(email);
    const businessIds = [...new Set(memberships.filter((m) => !managersOnly || managesIntegrations(m.role)).map((m) => m.businessId))];
    // An e-mail is text a stranger typed: kept as long as the members table allows, no longer.
    const actorEmail = email?.slice(0, 254) ?? null;
    if (businessIds.length === 0) {
      await this.audit.recordSignIn({ businessId: null, actorEmail, action, subject, address });
      return;
    }
    for (const businessId of businessIds) await this.audit.recordSignIn({ businessId, actorEmail, action, subject, address });
  }
}
