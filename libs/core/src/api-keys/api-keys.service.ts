import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { apiVersionProblems, type ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import { ApiKeyEntity, type ApiKeyOrigin } from '#database/entities/api-key.entity.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import type { MemberEntity } from '#database/entities/member.entity.js';
import { newId } from '#database/new-id.js';
import { CLOCK, type Clock } from '../clock/clock.js';
import { DomainError, validationFailed, type FieldError } from '../errors/domain-error.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { managesIntegrations } from '../businesses/member-rights.js';
import { SandboxService } from '../sandbox/sandbox.service.js';
import { apiKeyDisplayPrefix, apiKeyModeOf, generateApiKey, hashApiKey, isWellFormedApiKey, type ApiKeyMode } from './api-key-format.js';
import { checkApiKeyInput, type ApiKeyInput } from './api-key-input.js';
import { ApiKeysRepository, type StoredApiKey } from './api-keys.repository.js';
import { CONSOLE_KEY_WINDOW_MS, consoleKeyRateRefusal, keyLimitRefusal } from './key-budget.js';
import type { AuthenticatedKey } from './authenticated-key.js';
import { isUnexpired, oldKeyExpiry, rolledKeyLifeProblems, type RolledKeyLife } from './rolled-key-life.js';
import { LookupCache } from '../caching/lookup-cache.js';

/** A key named by its id (as key create printed it) or by its shown prefix (as fixtures print it). */
export type KeyReference = { id: string } | { prefix: string };

export interface NewApiKey extends ApiKeyInput {
  businessSlug: string;
  memberEmail: string;
  /** A test key (rk_test_) on the business's sandbox, which is made first when missing (docs/design-record.md#d19). */
  test?: boolean;
  /** Where it is made: the console's keys are limited per hour (docs/design-record.md#d28); admin when not given. */
  origin?: ApiKeyOrigin;
}

/** A roll (docs/design-record.md#d29): a new key like the old one, and the old one's remaining life. */
export interface ApiKeyRoll {
  businessSlug: string;
  /** The OWNER or PARTNER rolling it: the new key's maker. */
  memberEmail: string;
  /** The key rolled, live or test. */
  key: KeyReference;
  /** How long the old key keeps working: one of ROLLED_KEY_LIVES ('now', '1h', '24h', '7d'); a form's value is checked. */
  oldKeyExpiresIn: string;
  /** Where the roll is made, as for create: the console's count against its hourly limit; admin when not given. */
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

/** The new key of a roll, as create returns a key (shown once), and the old key with its expiry. */
export interface RolledApiKey extends Omit<CreatedApiKey, 'sandboxCreated'> {
  rolled: { id: string; prefix: string; expiresAt: string };
}

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
  /** When the key stops working (the old key of a roll), null if never: the console says "expires in 23 h". */
  expiresAt: string | null;
  /** When a request last came with it, to the minute; null if never. */
  lastUsedAt: string | null;
}

export interface RevokedApiKey {
  business: string;
  id: string;
  prefix: string;
  revoked: 1;
}

function keyReferenceProblems(which: KeyReference): FieldError[] {
  if ('id' in which) return UUID.test(which.id) ? [] : [{ path: '/id', message: 'must be a key id (a UUID), as key create printed it' }];
  return which.prefix.length > 0 ? [] : [{ path: '/prefix', message: 'must be a key prefix, e.g. rk_live_AbCd' }];
}

const named = (which: KeyReference): string => ('id' in which ? `the id ${which.id}` : `the prefix ${which.prefix}`);

const noActiveKey = (business: BusinessEntity, which: KeyReference): DomainError =>
  new DomainError('NOT_FOUND', `No active key of ${business.slug} has ${named(which)}.`);

const noKey = (business: BusinessEntity, which: KeyReference): DomainError =>
  new DomainError('NOT_FOUND', `No key of ${business.slug} has ${named(which)}.`);

/** KEY_NOT_ACTIVE for a key that no longer answers: rolling it would revive what its owner ended. */
function refuseInactive(key: StoredApiKey, now: Date): void {
  if (key.revokedAt !== null) {
    throw new DomainError(
      'KEY_NOT_ACTIVE',
      `The key ${key.prefix} was revoked at ${key.revokedAt.toISOString()}; only an active key can be rolled. Create a new key instead.`,
    );
  }
  if (!isUnexpired(key.expiresAt, now)) {
    throw new DomainError(
      'KEY_NOT_ACTIVE',
      `The key ${key.prefix} expired at ${key.expiresAt!.toISOString()}; only an active key can be rolled. Create a new key instead.`,
    );
  }
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
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(input: NewApiKey): Promise<CreatedApiKey> {
    const { name, scopes, apiVersion } = checkApiKeyInput(input);
    const business = await this.businesses.getBySlug(input.businessSlug);
    const member = await this.makerOf(business, input.memberEmail);

    // The member is the live business's; a test key belongs to the sandbox row, which is all it reaches.
    const mode: ApiKeyMode = input.test === true ? 'test' : 'live';
    const origin = input.origin ?? 'admin';
    const key = generateApiKey(mode);
    const { entity, sandbox } = await this.database.transactional(async () => {
      // The budgets of docs/design-record.md#d28, checked and spent in one transaction that waits
      // for the business's other key creations: two at once never both see room for one.
      await this.keys.lockCreations(business.id);
      const createdAt = this.clock.now();
      await this.refuseOverConsoleRate(business, origin, createdAt);
      const existing = mode === 'test' ? await this.sandboxes.findSandbox(business.id) : business;
      const refusal = keyLimitRefusal(business.slug, mode, existing ? await this.keys.countActive(existing.id, createdAt) : 0);
      if (refusal) throw refusal;
      // Only once the key is allowed: a refused test key makes no sandbox.
      const made = mode === 'test' ? await this.sandboxes.ensure(business) : null;
      const row = Object.assign(new ApiKeyEntity(), {
        id: newId(),
        businessId: made?.sandbox.id ?? business.id,
        memberId: member.id,
        name,
        prefix: apiKeyDisplayPrefix(key),
        keyHash: hashApiKey(this.config.API_KEY_PEPPER, key),
        scopes,
        createdAt,
        revokedAt: null,
        expiresAt: null,
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
  async revoke(businessSlug: string, which: KeyReference): Promise<RevokedApiKey> {
    const problems = keyReferenceProblems(which);
    if (problems.length > 0) throw validationFailed(problems);
    const business = await this.businesses.getBySlug(businessSlug);
    const now = this.clock.now();
    const id = await this.activeKeyId(business, which, now);
    const revoked = await this.onLiveOrSandbox(business, (ownerId) => this.keys.revokeById(ownerId, id, now));
    if (revoked === null) throw noActiveKey(business, which);
    return { business: business.slug, id, prefix: revoked.value, revoked: 1 };
  }

  /** The business's active keys, live and test, newest first. */
  async list(businessSlug: string): Promise<{ business: string; keys: ListedApiKey[] }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const keys = await this.keys.activeKeysOf(business.id, this.clock.now());
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
        expiresAt: key.expiresAt?.toISOString() ?? null,
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      })),
    };
  }

  /**
   * Pins one active key, named by its id or by its prefix (a bare string is an id), to another
   * published version (docs/design-record.md#d22). Like a revocation, it reaches every API instance
   * within AUTH_CACHE_TTL_MS: a lookup cached before it is answered until then
   * (docs/design-record.md#d2), and nothing is broadcast.
   */
  async setApiVersion(businessSlug: string, which: KeyReference | string, apiVersion: string): Promise<RepinnedApiKey> {
    const key: KeyReference = typeof which === 'string' ? { id: which } : which;
    const errors = [...keyReferenceProblems(key), ...apiVersionProblems(apiVersion, '/apiVersion')];
    if (errors.length > 0) throw validationFailed(errors);
    const business = await this.businesses.getBySlug(businessSlug);
    const now = this.clock.now();
    const id = await this.activeKeyId(business, key, now);
    const moved = await this.onLiveOrSandbox(business, (ownerId) => this.keys.setApiVersion(ownerId, id, apiVersion as ApiVersion, now));
    if (moved === null) throw noActiveKey(business, key);
    return {
      id: moved.value.id,
      prefix: moved.value.prefix,
      name: moved.value.name,
      scopes: moved.value.scopes,
      apiVersion: moved.value.apiVersion,
      business: business.slug,
      createdAt: moved.value.createdAt.toISOString(),
      mode: moved.mode,
    };
  }

  /**
   * Rolls a key (docs/design-record.md#d29), as Stripe does: in one transaction, a new key with the
   * old one's name, scopes, version and mode, made by the acting member, and the old key's expiry
   * (now, or in 1 h, 24 h or 7 d; never later than an expiry it already had). The new key counts
   * toward the same limits as a created one: the console's hourly keys, and the active keys of its
   * mode, the old key included while it still answers (a roll that ends it now takes its place).
   * A revoked or expired key is refused with KEY_NOT_ACTIVE.
   */
  async roll(input: ApiKeyRoll): Promise<RolledApiKey> {
    const errors = [...keyReferenceProblems(input.key), ...rolledKeyLifeProblems(input.oldKeyExpiresIn, '/oldKeyExpiresIn')];
    if (errors.length > 0) throw validationFailed(errors);
    const life = input.oldKeyExpiresIn as RolledKeyLife;
    const business = await this.businesses.getBySlug(input.businessSlug);
    const member = await this.makerOf(business, input.memberEmail);
    const id = await this.activeKeyId(business, input.key, this.clock.now());
    const origin = input.origin ?? 'admin';
    return this.database.transactional(async () => {
      // As create: the budgets are checked and spent while the business's other creations wait.
      await this.keys.lockCreations(business.id);
      const now = this.clock.now();
      const found = await this.onLiveOrSandbox(business, (ownerId) => this.keys.keyForUpdate(ownerId, id));
      if (found === null) throw noKey(business, input.key);
      const { value: old, ownerId, mode } = found;
      refuseInactive(old, now);
      await this.refuseOverConsoleRate(business, origin, now);
      const replaced = life === 'now' ? 1 : 0;
      const refusal = keyLimitRefusal(business.slug, mode, (await this.keys.countActive(ownerId, now)) - replaced);
      if (refusal) throw refusal;

      const key = generateApiKey(mode);
      const row = Object.assign(new ApiKeyEntity(), {
        id: newId(),
        businessId: ownerId,
        memberId: member.id,
        name: old.name,
        prefix: apiKeyDisplayPrefix(key),
        keyHash: hashApiKey(this.config.API_KEY_PEPPER, key),
        scopes: old.scopes,
        createdAt: now,
        revokedAt: null,
        expiresAt: null,
        apiVersion: old.apiVersion,
        origin,
      });
      await this.keys.insert(row);
      const expiresAt = oldKeyExpiry(old.expiresAt, life, now);
      await this.keys.setExpiry(ownerId, old.id, expiresAt);
      return {
        key,
        id: row.id,
        prefix: row.prefix,
        name: row.name,
        scopes: row.scopes,
        apiVersion: row.apiVersion,
        business: business.slug,
        member: member.email,
        createdAt: now.toISOString(),
        mode,
        rolled: { id: old.id, prefix: old.prefix, expiresAt: expiresAt.toISOString() },
      };
    });
  }

  /**
   * What a lookup of the key would answer without asking the database: the key, null for a
   * malformed key or one recently not found, undefined when only the database can tell.
   */
  cachedLookup(rawKey: string): AuthenticatedKey | null | undefined {
    if (!isWellFormedApiKey(rawKey)) return null;
    const cached = this.cached(hashApiKey(this.config.API_KEY_PEPPER, rawKey));
    return cached === undefined ? undefined : this.unexpired(cached);
  }

  /**
   * The key's owner and rights, or null for a malformed, unknown, revoked or expired key. The hooks run only
   * when the cache cannot answer, around the database lookup (the key guard's failed-authentication
   * limit, docs/design-record.md#d24); the key is hashed once either way.
   */
  async authenticate(rawKey: string, hooks: KeyLookupHooks = {}): Promise<AuthenticatedKey | null> {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = hashApiKey(this.config.API_KEY_PEPPER, rawKey);
    const cached = this.cached(hash);
    if (cached !== undefined) return this.unexpired(cached);
    await hooks.beforeDatabase?.(hash);
    const found = await this.keys.findActiveByHash(hash);
    // Keys are made in their business's mode; a prefix that disagrees with the row is refused all the same.
    const value = found && found.mode === apiKeyModeOf(rawKey) ? found : null;
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      const expiresAt = Date.now() + this.config.AUTH_CACHE_TTL_MS;
      if (value) this.found.set(hash, value, expiresAt);
      else this.notFound.set(hash, null, expiresAt);
    }
    const usable = this.unexpired(value);
    await hooks.afterDatabase?.(hash, usable !== null);
    return usable;
  }

  /**
   * The key if it has not expired by the clock now: a cached row is checked at each use, so a key
   * stops working at its expiry, not a cache lifetime later (docs/design-record.md#d29). It is
   * cached all the same: its expiry is in the row, and a lookup would only find it again.
   */
  private unexpired(key: AuthenticatedKey | null): AuthenticatedKey | null {
    return key !== null && isUnexpired(key.expiresAt, this.clock.now()) ? key : null;
  }

  /** The member making a key: an OWNER or PARTNER of the business. */
  private async makerOf(business: BusinessEntity, email: string): Promise<MemberEntity> {
    const member = await this.businessesRepository.findMemberByEmail(business.id, email);
    if (!member) throw new DomainError('NOT_FOUND', `No member of ${business.slug} has the e-mail ${email}.`);
    if (!managesIntegrations(member.role)) {
      throw validationFailed([{ path: '/member', message: `only an OWNER or PARTNER creates keys; ${member.email} is ${member.role}` }]);
    }
    return member;
  }

  /** API_RATE_LIMIT once the console has made its hourly keys for the business (docs/design-record.md#d28); only inside the creation lock. */
  private async refuseOverConsoleRate(business: BusinessEntity, origin: ApiKeyOrigin, now: Date): Promise<void> {
    if (origin !== 'console') return;
    const made = await this.keys.consoleKeysSince(business.id, new Date(now.getTime() - CONSOLE_KEY_WINDOW_MS));
    const refusal = consoleKeyRateRefusal(made, now);
    if (refusal) throw refusal;
  }

  /**
   * The id of the key named: an id as given; a prefix, the one active key of the business with it
   * (a test key's prefix names its sandbox's, docs/design-record.md#d19), refused when several share it.
   */
  private async activeKeyId(business: BusinessEntity, which: KeyReference, now: Date): Promise<string> {
    if ('id' in which) return which.id;
    const owner = apiKeyModeOf(which.prefix) === 'test' ? await this.sandboxes.findSandbox(business.id) : business;
    const ids = owner ? await this.keys.activeIdsByPrefix(owner.id, which.prefix, now) : [];
    if (ids.length === 0) throw noActiveKey(business, which);
    if (ids.length > 1) {
      throw validationFailed([
        {
          path: '/prefix',
          message: `${ids.length} active keys have the prefix ${which.prefix} (ids ${ids.join(', ')}); name one with --id`,
        },
      ]);
    }
    return ids[0];
  }

  /**
   * `act` on the live business's row, else on its sandbox's (a test key's, docs/design-record.md#d19),
   * as a key id names either: what it answered, on whose row, in which mode; null when neither had it.
   */
  private async onLiveOrSandbox<T>(
    business: BusinessEntity,
    act: (ownerId: string) => Promise<T | null>,
  ): Promise<{ value: T; ownerId: string; mode: ApiKeyMode } | null> {
    const live = await act(business.id);
    if (live !== null) return { value: live, ownerId: business.id, mode: 'live' };
    const sandbox = await this.sandboxes.findSandbox(business.id);
    const test = sandbox ? await act(sandbox.id) : null;
    return test !== null ? { value: test, ownerId: sandbox!.id, mode: 'test' } : null;
  }

  private cached(hash: string): AuthenticatedKey | null | undefined {
    // The cache's lifetime is real time (AUTH_CACHE_TTL_MS); a key's expiry is the clock's (unexpired).
    const now = Date.now();
    return this.found.get(hash, now) ?? this.notFound.get(hash, now);
  }
}
