import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { BusinessesRepository, type Membership } from '../businesses/businesses.repository.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { managesIntegrations } from '../businesses/member-rights.js';
import { isEmailAddress } from '../contacts/email-address.js';
import { DomainError, validationFailed } from '../errors/domain-error.js';
import { SIGN_IN_LINK_TTL_SECONDS } from './console-auth.js';
import { ConsoleAuthentication } from './console-authentication.js';
import { consoleBaseUrl, signInConfirmUrl } from './console-origin.js';

/** A sign-in link as `admin member sign-in-link` prints it. */
export interface SignInLink {
  url: string;
  business: string;
  email: string;
  expiresAt: string;
}

/** E-mails are stored lower-cased (members table), so they are compared that way. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Who may use the owner's console, and the links that sign them in (docs/design-record.md#d26):
 * an e-mail that is an OWNER or PARTNER of at least one live business. The web page and the admin
 * command line ask here, so both apply one rule.
 */
@Injectable()
export class ConsoleLinks {
  constructor(
    private readonly config: AppConfig,
    private readonly businesses: BusinessesService,
    private readonly members: BusinessesRepository,
    private readonly authentication: ConsoleAuthentication,
  ) {}

  /** The businesses whose console the e-mail may use, by name. */
  async businessesOf(email: string): Promise<Membership[]> {
    const memberships = await this.members.membershipsByEmail(normalizeEmail(email));
    return memberships.filter((membership) => managesIntegrations(membership.role));
  }

  /** The e-mail's membership of the business, when it may use that business's console; null otherwise. */
  async membershipIn(email: string, slug: string): Promise<Membership | null> {
    return (await this.businessesOf(email)).find((membership) => membership.slug === slug) ?? null;
  }

  /** A link for an e-mail that may use the console, else null; made only for such an e-mail. */
  async linkIfAllowed(email: string, baseUrl: string): Promise<string | null> {
    const normalized = normalizeEmail(email);
    if (!isEmailAddress(normalized) || (await this.businessesOf(normalized)).length === 0) return null;
    return signInConfirmUrl(baseUrl, await this.authentication.issueToken(normalized));
  }

  /** `admin member sign-in-link`: a link for one OWNER or PARTNER of the business, refused for anyone else. */
  async linkFor(slug: string, email: string, now = new Date()): Promise<SignInLink> {
    const business = await this.businesses.getBySlug(slug);
    const normalized = normalizeEmail(email);
    const member = await this.members.findMemberByEmail(business.id, normalized);
    if (!member) throw new DomainError('NOT_FOUND', `No member of ${business.slug} has the e-mail ${normalized}.`);
    if (!managesIntegrations(member.role)) {
      throw validationFailed([
        { path: '/email', message: `only an OWNER or PARTNER signs in to the console; ${member.email} is ${member.role}` },
      ]);
    }
    const token = await this.authentication.issueToken(member.email);
    return {
      url: signInConfirmUrl(consoleBaseUrl(this.config), token),
      business: business.slug,
      email: member.email,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_SECONDS * 1000).toISOString(),
    };
  }
}
