import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { apiVersionProblems, CURRENT_API_VERSION, type ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import { ApiKeyEntity, type ApiKeyOrigin } from '#database/entities/api-key.entity.js';
import { newId } from '#database/new-id.js';
import { DomainError, validationFailed } from '../errors/domain-error.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { managesIntegrations } from '../businesses/member-rights.js';
import { SandboxService } from '../sandbox/sandbox.service.js';
import { isScope, SCOPES } from '../scopes/scope.js';
import { apiKeyDisplayPrefix, apiKeyModeOf, generateApiKey, hashApiKey, isWellFormedApiKey, type ApiKeyMode } from './api-key-format.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { CONSOLE_KEY_WINDOW_MS, consoleKeyRateRefusal, keyLimitRefusal } from './key-budget.js';
import type { AuthenticatedKey } from './authenticated-key.js';
import { LookupCache } from '../caching/lookup-cache.js';

export interface NewApiKey {
  businessSlug: string;
  memberEmail: string;
  name: string;
  scopes: string[];
  /** A test key (rk_test_) on the business's sandbox, which is made first when missing (docs/design-record.md#d19). */
  test?: boolean;
  /** The version the key is pinned to; the current one when not given (docs/design-record.md#d22). */
  apiVersion?: string;
  /** Where it is made: the console's keys are limited per hour (docs/design-record.md#d28); admin when not given. */
  origin?: ApiKeyOrigin;
}

/** What the caller of `authenticate` does around a database lookup, given the key's stored hash. */
export interface KeyLookupHooks {
  /** Before the database is asked; throws to refuse the key without a lookup. */
  beforeDatabase?(keyHash: string): Promise<void>;
  /** Once the database has answered whether the key is valid. */
  afterDatabase?(keyHash: string, valid: boolean): Promise<void>;
}

export interface CreatedApiKey {
  /** Shown once; only its hash is stored. */
  key: string;
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  apiVersion: ApiVersion;
  business: string;
  member: string;
  createdAt: string;
  mode: ApiKeyMode;
  /** For a test key: whether this call made the sandbox. */
  sandboxCreated?: boolean;
}

const MAX_CACHED_LOOKUPS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key moved to another version (`admin key api-version`), as `key create` printed it but the key itself. */
export type RepinnedApiKey = Omit<CreatedApiKey, 'key' | 'member' | 'sandboxCreated'>;

/** An active key as `admin key list` and the console list it: never its secret, which is not stored. */
export interface ListedApiKey {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  apiVersion: ApiVersion;
  mode: ApiKeyMode;
  createdAt: string;
  /** When a request last came with it, to the minute; null if never. */
  lastUsedAt: string | null;
}

export interface RevokedApiKey {
  business: string;
  id: string;
  prefix: string;
  revoked: 1;
}

@Injectable()
export class ApiKeysService {
  /**
   * Short-lived, so a revocation or plan change applies within AUTH_CACHE_TTL_MS everywhere. Keys
   * found and keys not found are kept apart, each evicting its least recently used entry: a flood
   * of unknown keys only ever evicts other unknown keys.
   */
  private readonly found = new LookupCache<AuthenticatedKey>(MAX_CACHED_LOOKUPS);
  private readonly notFound = new LookupCache<null>(MAX_CACHED_LOOKUPS);

  constructor(
    private readonly config: AppConfig,
    private readonly database: Database,
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
    if (input.apiVersion !== undefined) errors.push(...apiVersionProblems(input.apiVersion, '/apiVersion'));
    if (errors.length > 0) throw validationFailed(errors);
    const apiVersion = (input.apiVersion as ApiVersion | undefined) ?? CURRENT_API_VERSION;

    const business = await this.businesses.getBySlug(input.businessSlug);
    const member = await this.businessesRepository.findMemberByEmail(business.id, input.memberEmail);
    if (!member) throw new DomainError('NOT_FOUND', `No member of ${business.slug} has the e-mail ${input.memberEmail}.`);
    if (!managesIntegrations(member.role)) {
      throw validationFailed([{ path: '/member', message: `only an OWNER or PARTNER creates keys; ${member.email} is ${member.role}` }]);
    }

    // The member is the live business's; a test key belongs to the sandbox row, which is all it reaches.
    const mode: ApiKeyMode = input.test === true ? 'test' : 'live';
    const origin = input.origin ?? 'admin';
    const key = generateApiKey(mode);
    const { entity, sandbox } = await this.database.transactional(async () => {
      // The budgets of docs/design-record.md#d28, checked and spent in one transaction that waits
      // for the business's other key creations: two at once never both see room for one.
      await this.keys.lockCreations(business.id);
      const createdAt = new Date();
      if (origin === 'console') {
        const made = await this.keys.consoleKeysSince(business.id, new Date(createdAt.getTime() - CONSOLE_KEY_WINDOW_MS));
        const refusal = consoleKeyRateRefusal(made, createdAt);
        if (refusal) throw refusal;
      }
      const existing = mode === 'test' ? await this.sandboxes.findSandbox(business.id) : business;
      const refusal = keyLimitRefusal(business.slug, mode, existing ? await this.keys.countActive(existing.id) : 0);
      if (refusal) throw refusal;
      // Only once the key is allowed: a refused test key makes no sandbox.
      const made = mode === 'test' ? await this.sandboxes.ensure(business) : null;
      const row = Object.assign(new ApiKeyEntity(), {
        id: newId(),
        businessId: made?.sandbox.id ?? business.id,
        memberId: member.id,
        name: input.name,
        prefix: apiKeyDisplayPrefix(key),
        keyHash: hashApiKey(this.config.API_KEY_PEPPER, key),
        scopes: [...new Set(input.scopes)],
        createdAt,
        revokedAt: null,
        apiVersion,
        origin,
      });
      await this.keys.insert(row);
      return { entity: row, sandbox: made };
    });
    return {
      key,
      id: entity.id,
      prefix: entity.prefix,
      name: entity.name,
      scopes: entity.scopes,
      apiVersion: entity.apiVersion,
      business: business.slug,
      member: member.email,
      createdAt: entity.createdAt.toISOString(),
      mode,
      ...(sandbox ? { sandboxCreated: sandbox.created } : {}),
    };
  }

  /**
   * Revokes one key, named by its id or by its prefix. A 12-character prefix can be shared by
   * several keys: revoking by it is refused then, naming their ids, rather than revoking keys the
   * operator did not mean.
   */
  async revoke(businessSlug: string, which: { id: string } | { prefix: string }): Promise<RevokedApiKey> {
    const business = await this.businesses.getBySlug(businessSlug);
    if ('id' in which) {
      if (!UUID.test(which.id)) throw validationFailed([{ path: '/id', message: 'must be a key id (a UUID), as key create printed it' }]);
      // A live key, else a test key of the business's sandbox (docs/design-record.md#d19).
      let prefix = await this.keys.revokeById(business.id, which.id);
      if (prefix === null) {
        const sandbox = await this.sandboxes.findSandbox(business.id);
        if (sandbox) prefix = await this.keys.revokeById(sandbox.id, which.id);
      }
      if (prefix === null) throw new DomainError('NOT_FOUND', `No active key of ${business.slug} has the id ${which.id}.`);
      return { business: business.slug, id: which.id, prefix, revoked: 1 };
    }
    // A test key's prefix names it: it belongs to the sandbox row (docs/design-record.md#d19).
    const owner = apiKeyModeOf(which.prefix) === 'test' ? await this.sandboxes.sandboxOf(business.slug) : business;
    const ids = await this.keys.activeIdsByPrefix(owner.id, which.prefix);
    if (ids.length === 0) throw new DomainError('NOT_FOUND', `No active key of ${business.slug} has the prefix ${which.prefix}.`);
    if (ids.length > 1) {
      throw validationFailed([
        {
          path: '/prefix',
          message: `${ids.length} active keys have the prefix ${which.prefix} (ids ${ids.join(', ')}); name one with --id`,
        },
      ]);
    }
    const prefix = await this.keys.revokeById(owner.id, ids[0]);
    if (prefix === null) throw new DomainError('NOT_FOUND', `No active key of ${business.slug} has the prefix ${which.prefix}.`);
    return { business: business.slug, id: ids[0], prefix, revoked: 1 };
  }

  /** The business's active keys, live and test, newest first. */
  async list(businessSlug: string): Promise<{ business: string; keys: ListedApiKey[] }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const keys = await this.keys.activeKeysOf(business.id);
    return {
      business: business.slug,
      keys: keys.map((key) => ({
        id: key.id,
        prefix: key.prefix,
        name: key.name,
        scopes: key.scopes,
        apiVersion: key.apiVersion,
        mode: key.sandbox ? 'test' : 'live',
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      })),
    };
  }

  /**
   * Pins one active key, named by its id, to another published version (docs/design-record.md#d22).
   * Like a revocation, it reaches every API instance within AUTH_CACHE_TTL_MS: a lookup cached
   * before it is answered until then (docs/design-record.md#d2), and nothing is broadcast.
   */
  async setApiVersion(businessSlug: string, id: string, apiVersion: string): Promise<RepinnedApiKey> {
    const errors = apiVersionProblems(apiVersion, '/apiVersion');
    if (!UUID.test(id)) errors.unshift({ path: '/id', message: 'must be a key id (a UUID), as key create printed it' });
    if (errors.length > 0) throw validationFailed(errors);
    const business = await this.businesses.getBySlug(businessSlug);
    // A live key, else a test key of the business's sandbox (docs/design-record.md#d19), as revoke finds them.
    let mode: ApiKeyMode = 'live';
    let key = await this.keys.setApiVersion(business.id, id, apiVersion as ApiVersion);
    if (key === null) {
      const sandbox = await this.sandboxes.findSandbox(business.id);
      if (sandbox) key = await this.keys.setApiVersion(sandbox.id, id, apiVersion as ApiVersion);
      mode = 'test';
    }
    if (key === null) throw new DomainError('NOT_FOUND', `No active key of ${business.slug} has the id ${id}.`);
    return {
      id: key.id,
      prefix: key.prefix,
      name: key.name,
      scopes: key.scopes,
      apiVersion: key.apiVersion,
      business: business.slug,
      createdAt: key.createdAt.toISOString(),
      mode,
    };
  }

  /**
   * What a lookup of the key would answer without asking the database: the key, null for a
   * malformed key or one recently not found, undefined when only the database can tell.
   */
  cachedLookup(rawKey: string): AuthenticatedKey | null | undefined {
    if (!isWellFormedApiKey(rawKey)) return null;
    return this.cached(hashApiKey(this.config.API_KEY_PEPPER, rawKey));
  }

  /**
   * The key's owner and rights, or null for a malformed, unknown or revoked key. The hooks run only
   * when the cache cannot answer, around the database lookup (the key guard's failed-authentication
   * limit, docs/design-record.md#d24); the key is hashed once either way.
   */
  async authenticate(rawKey: string, hooks: KeyLookupHooks = {}): Promise<AuthenticatedKey | null> {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = hashApiKey(this.config.API_KEY_PEPPER, rawKey);
    const cached = this.cached(hash);
    if (cached !== undefined) return cached;
    await hooks.beforeDatabase?.(hash);
    const found = await this.keys.findActiveByHash(hash);
    // Keys are made in their business's mode; a prefix that disagrees with the row is refused all the same.
    const value = found && found.mode === apiKeyModeOf(rawKey) ? found : null;
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      const expiresAt = Date.now() + this.config.AUTH_CACHE_TTL_MS;
      if (value) this.found.set(hash, value, expiresAt);
      else this.notFound.set(hash, null, expiresAt);
    }
    await hooks.afterDatabase?.(hash, value !== null);
    return value;
  }

  private cached(hash: string): AuthenticatedKey | null | undefined {
    const now = Date.now();
    return this.found.get(hash, now) ?? this.notFound.get(hash, now);
  }
}
