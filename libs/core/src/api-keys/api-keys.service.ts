import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { ApiKeyEntity } from '#database/entities/api-key.entity.js';
import { newId } from '#database/new-id.js';
import { DomainError, validationFailed } from '../errors/domain-error.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { SandboxService } from '../sandbox/sandbox.service.js';
import { isScope, SCOPES } from '../scopes/scope.js';
import { apiKeyDisplayPrefix, apiKeyModeOf, generateApiKey, hashApiKey, isWellFormedApiKey, type ApiKeyMode } from './api-key-format.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import type { AuthenticatedKey } from './authenticated-key.js';

export interface NewApiKey {
  businessSlug: string;
  memberEmail: string;
  name: string;
  scopes: string[];
  /** A test key (rk_test_) on the business's sandbox, which is made first when missing (docs/design-record.md#d19). */
  test?: boolean;
}

export interface CreatedApiKey {
  /** Shown once; only its hash is stored. */
  key: string;
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  business: string;
  member: string;
  createdAt: string;
  mode: ApiKeyMode;
  /** For a test key: whether this call made the sandbox. */
  sandboxCreated?: boolean;
}

interface CachedLookup {
  value: AuthenticatedKey | null;
  expiresAt: number;
}

const MAX_CACHED_LOOKUPS = 10_000;

@Injectable()
export class ApiKeysService {
  /** Short-lived, so a revocation or plan change applies within AUTH_CACHE_TTL_MS everywhere. */
  private readonly lookups = new Map<string, CachedLookup>();

  constructor(
    private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly businesses: BusinessesService,
    private readonly businessesRepository: BusinessesRepository,
    private readonly sandboxes: SandboxService,
  ) {}

  async create(input: NewApiKey): Promise<CreatedApiKey> {
    const badScopes = input.scopes.filter((s) => !isScope(s));
    const errors = badScopes.map((s) => ({ path: '/scopes', message: `unknown scope ${s}; known: ${SCOPES.join(', ')}` }));
    if (input.scopes.length === 0) errors.push({ path: '/scopes', message: 'at least one scope is needed' });
    if (input.name.trim().length === 0 || input.name.length > 120) {
      errors.push({ path: '/name', message: 'must be 1 to 120 characters' });
    }
    if (errors.length > 0) throw validationFailed(errors);

    const business = await this.businesses.getBySlug(input.businessSlug);
    const member = await this.businessesRepository.findMemberByEmail(business.id, input.memberEmail);
    if (!member) throw new DomainError('NOT_FOUND', `No member of ${business.slug} has the e-mail ${input.memberEmail}.`);
    if (member.role !== 'OWNER' && member.role !== 'PARTNER') {
      throw validationFailed([{ path: '/member', message: `only an OWNER or PARTNER creates keys; ${member.email} is ${member.role}` }]);
    }

    // The member is the live business's; a test key belongs to the sandbox row, which is all it reaches.
    const mode: ApiKeyMode = input.test === true ? 'test' : 'live';
    const sandbox = mode === 'test' ? await this.sandboxes.ensure(business) : null;
    const key = generateApiKey(mode);
    const entity = Object.assign(new ApiKeyEntity(), {
      id: newId(),
      businessId: sandbox?.sandbox.id ?? business.id,
      memberId: member.id,
      name: input.name,
      prefix: apiKeyDisplayPrefix(key),
      keyHash: hashApiKey(this.config.API_KEY_PEPPER, key),
      scopes: [...new Set(input.scopes)],
      createdAt: new Date(),
      revokedAt: null,
    });
    await this.keys.insert(entity);
    return {
      key,
      id: entity.id,
      prefix: entity.prefix,
      name: entity.name,
      scopes: entity.scopes,
      business: business.slug,
      member: member.email,
      createdAt: entity.createdAt.toISOString(),
      mode,
      ...(sandbox ? { sandboxCreated: sandbox.created } : {}),
    };
  }

  async revoke(businessSlug: string, prefix: string): Promise<{ business: string; prefix: string; revoked: number }> {
    const business = await this.businesses.getBySlug(businessSlug);
    // A test key's prefix names it: it belongs to the sandbox row (docs/design-record.md#d19).
    const owner = apiKeyModeOf(prefix) === 'test' ? await this.sandboxes.sandboxOf(business.slug) : business;
    const revoked = await this.keys.revokeByPrefix(owner.id, prefix);
    if (revoked === 0) throw new DomainError('NOT_FOUND', `No active key of ${business.slug} has the prefix ${prefix}.`);
    return { business: business.slug, prefix, revoked };
  }

  /** The key's owner and rights, or null for a malformed, unknown or revoked key. */
  async authenticate(rawKey: string): Promise<AuthenticatedKey | null> {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = hashApiKey(this.config.API_KEY_PEPPER, rawKey);
    const now = Date.now();
    const cached = this.lookups.get(hash);
    if (cached && cached.expiresAt > now) return cached.value;

    const found = await this.keys.findActiveByHash(hash);
    // Keys are made in their business's mode; a prefix that disagrees with the row is refused all the same.
    const value = found && found.mode === apiKeyModeOf(rawKey) ? found : null;
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      if (this.lookups.size >= MAX_CACHED_LOOKUPS) this.lookups.clear();
      this.lookups.set(hash, { value, expiresAt: now + this.config.AUTH_CACHE_TTL_MS });
    }
    return value;
  }
}
