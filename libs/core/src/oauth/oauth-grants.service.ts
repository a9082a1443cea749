import { Inject, Injectable } from '@nestjs/common';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import type { ApiKeyMode } from '../api-keys/api-key-format.js';
import { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { keyLimitRefusal } from '../api-keys/key-budget.js';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { managesIntegrations } from '../businesses/member-rights.js';
import { CLOCK, type Clock } from '../clock/clock.js';
import { DomainError } from '../errors/domain-error.js';
import { SandboxService } from '../sandbox/sandbox.service.js';
import { isScope } from '../scopes/scope.js';
import { OAuthGrantsRepository, type ListedGrant } from './oauth-grants.repository.js';

/** What the owner approved on the consent page. */
export interface GrantApproval {
  businessSlug: string;
  mode: ApiKeyMode;
  memberEmail: string;
  clientId: string;
  appName: string;
  /** The API scopes approved (offline_access, which only asks for a refresh token, is not one). */
  scopes: string[];
}

/** The name a grant shows as a key would: the app's, cut to the key name's length. */
const MAX_APP_NAME = 100;

/**
 * Grants (docs/design-record.md#d30): an owner's consent to one app for one business and mode. A
 * grant is a credential of api_keys (origin `oauth`), so every check a key passes it passes the same
 * way, and it counts in the business's budget of active credentials per mode (D28). Approving the
 * same app again for the same business and mode updates that grant rather than making another.
 */
@Injectable()
export class OAuthGrantsService {
  constructor(
    private readonly database: Database,
    private readonly grants: OAuthGrantsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly businesses: BusinessesService,
    private readonly businessesRepository: BusinessesRepository,
    private readonly sandboxes: SandboxService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The grant the approval makes or renews: its id, which the consent's tokens carry. */
  async approve(approval: GrantApproval): Promise<{ grantId: string }> {
    const scopes = approval.scopes.filter(isScope);
    if (scopes.length === 0) throw new DomainError('VALIDATION_FAILED', 'Approve at least one of the scopes the app asked for.');
    const business = await this.businesses.getBySlug(approval.businessSlug);
    const member = await this.businessesRepository.findMemberByEmail(business.id, approval.memberEmail);
    if (!member || !managesIntegrations(member.role)) {
      throw new DomainError('OPERATION_REFUSED', `Only an OWNER or PARTNER of ${business.slug} can connect an app to it.`);
    }
    const appName = approval.appName.slice(0, MAX_APP_NAME);
    return this.database.transactional(async () => {
      await this.keys.lockCreations(business.id);
      const existing = approval.mode === 'test' ? await this.sandboxes.findSandbox(business.id) : business;
      const current = existing ? await this.grants.activeGrantForUpdate(existing.id, approval.clientId) : null;
      if (current) {
        await this.grants.setScopes(current, appName, scopes, member.id);
        return { grantId: current };
      }
      const refusal = keyLimitRefusal(
        business.slug,
        approval.mode,
        existing ? await this.keys.countActive(existing.id, this.clock.now()) : 0,
      );
      if (refusal) throw refusal;
      const owner = approval.mode === 'test' ? (await this.sandboxes.ensure(business)).sandbox : business;
      const id = newId();
      await this.grants.insert({
        id,
        businessId: owner.id,
        memberId: member.id,
        appName,
        // Shown where a key's prefix is (GET /me's `key`, in the contract's pattern): the mode's,
        // then the grant id's first four characters. Key look-ups by prefix leave grants out.
        prefix: `rk_${approval.mode}_${id.slice(0, 4)}`,
        scopes,
        apiVersion: CURRENT_API_VERSION,
        clientId: approval.clientId,
      });
      return { grantId: id };
    });
  }

  /** The business's active grants, live and test, newest first (the Connections page). */
  async list(businessSlug: string): Promise<ListedGrant[]> {
    const business = await this.businesses.getBySlug(businessSlug);
    return this.grants.activeGrantsOf(business.id);
  }

  /** Ends a grant and every token of it; the API refuses them within AUTH_CACHE_TTL_MS on every instance. */
  async revoke(businessSlug: string, grantId: string): Promise<{ appName: string }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const appName = await this.grants.revoke(business.id, grantId);
    if (appName === null) throw new DomainError('NOT_FOUND', `${business.slug} has no active connection ${grantId}.`);
    return { appName };
  }
}
