import { Injectable } from '@nestjs/common';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import type { ApiKeyEntity, ApiKeyOrigin } from '#database/entities/api-key.entity.js';
import type { Plan } from '#database/entities/business.entity.js';
import { defineStatement } from '#database/statement.js';
import type { ApiKeyMode } from './api-key-format.js';

/** What one authenticated request needs to know about its key, read in one query. */
export interface ApiKeyLookup {
  keyId: string;
  keyName: string;
  prefix: string;
  scopes: string[];
  keyCreatedAt: Date;
  /** The business whose data the key reads and writes: for a test key, the sandbox row (docs/design-record.md#d19). */
  businessId: string;
  /**
   * The live business's id, in both modes: the tenant whose shares of the shared resources a
   * request takes (docs/design-record.md#d24), its sandbox's requests counted with its own.
   */
  tenantId: string;
  /** The slug the key presents (GET /me, notices, logs): the live business's, in both modes. */
  businessSlug: string;
  /** The live business's plan, in both modes. */
  plan: Plan;
  /** test when the key's business is a sandbox. */
  mode: ApiKeyMode;
  /** The version the key is pinned to (docs/design-record.md#d22): what its answers are shaped for. */
  apiVersion: ApiVersion;
  /**
   * When the key stops working (a rolled key, docs/design-record.md#d29), null if never. The lookup
   * returns an expired key all the same: whoever uses the row compares it with the clock at use
   * time, so a cached row stops working at its expiry too.
   */
  expiresAt: Date | null;
  /**
   * The partner app the owner approved, when the credential is an OAuth grant rather than a key
   * (docs/design-record.md#d30); absent for a key.
   */
  app?: { clientId: string; name: string };
}

/** The columns a credential's lookup reads, whichever way it was found (a key's hash, a token). */
export interface ApiKeyLookupRow {
  key_id: string;
  key_name: string;
  prefix: string;
  scopes: string[];
  key_created_at: Date;
  business_id: string;
  tenant_id: string;
  business_slug: string;
  plan: Plan;
  sandbox: boolean;
  api_version: ApiVersion;
  expires_at: Date | null;
}

// Every request whose key is not in the lookup cache runs it. A test key's business is a sandbox:
// its slug and plan are the live business's (docs/design-record.md#d19). It also records the key's
// last use, in the same statement (no round trip added), at most once a minute per key: the row is
// written only when its time is older, so most lookups write nothing (docs/design-record.md#d26).
// An expired key's use is recorded too: the owner sees a partner still sending the old key of a roll.
export const FIND_ACTIVE_BY_HASH = defineStatement<[keyHash: string], ApiKeyLookupRow>({
  name: 'find_active_api_key',
  text: `WITH used AS (
         UPDATE api_keys SET last_used_at = now()
          WHERE key_hash = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
         RETURNING id)
       SELECT k.id AS key_id, k.name AS key_name, k.prefix, k.scopes, k.created_at AS key_created_at, k.api_version, k.expires_at,
              b.id AS business_id, coalesce(l.id, b.id) AS tenant_id, coalesce(l.slug, b.slug) AS business_slug, coalesce(l.plan, b.plan) AS plan,
              b.live_business_id IS NOT NULL AS sandbox
         FROM api_keys k JOIN businesses b ON b.id = k.business_id
         LEFT JOIN businesses l ON l.id = b.live_business_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
});

const INSERT_API_KEY = defineStatement<
  [
    id: string,
    businessId: string,
    memberId: string,
    name: string,
    prefix: string,
    keyHash: string,
    scopes: string[],
    createdAt: Date,
    revokedAt: Date | null,
    apiVersion: ApiVersion,
    origin: ApiKeyOrigin,
  ]
>({
  name: 'insert_api_key',
  text: `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, created_at, revoked_at, api_version, origin)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
});

// Key creations of one business (live and sandbox) take turns (docs/design-record.md#d28): the
// count that decides a creation and its insert are not interleaved with another creation's.
const LOCK_KEY_CREATION = defineStatement<[liveBusinessId: string]>({
  name: 'lock_api_key_creation',
  text: `SELECT pg_advisory_xact_lock(hashtextextended('api_keys.create:' || $1::text, 0))`,
});

// "Active", here and below: not revoked, and not expired at the service clock's `now` (a rolled
// key's old key counts until its expiry: it still answers requests, docs/design-record.md#d29).
const COUNT_ACTIVE_KEYS = defineStatement<[businessId: string, now: Date], { n: number }>({
  name: 'count_active_api_keys',
  text: 'SELECT count(*)::int AS n FROM api_keys WHERE business_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)',
});

// Revoked keys count too: revoking does not give back what was made.
const CONSOLE_KEYS_SINCE = defineStatement<[liveBusinessId: string, since: Date], { n: number; oldest: Date | null }>({
  name: 'console_api_keys_since',
  text: `SELECT count(*)::int AS n, min(k.created_at) AS oldest
  FROM api_keys k JOIN businesses b ON b.id = k.business_id
 WHERE (b.id = $1 OR b.live_business_id = $1) AND k.origin = 'console' AND k.created_at > $2`,
});

const ACTIVE_KEY_IDS_BY_PREFIX = defineStatement<[businessId: string, prefix: string, now: Date], { id: string }>({
  name: 'active_api_key_ids_by_prefix',
  text: `SELECT id FROM api_keys WHERE business_id = $1 AND prefix = $2 AND origin <> 'oauth' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)
 ORDER BY created_at, id`,
});

/** One active key of the business, as `admin key` commands print it. */
export interface ActiveApiKey {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  apiVersion: ApiVersion;
  createdAt: Date;
  /** When the key stops working (a rolled key's old key), null if never. */
  expiresAt: Date | null;
}

const SET_API_VERSION = defineStatement<[businessId: string, id: string, apiVersion: ApiVersion, now: Date], ActiveApiKey>({
  name: 'set_api_key_version',
  text: `UPDATE api_keys SET api_version = $3 WHERE business_id = $1 AND id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $4)
RETURNING id, prefix, name, scopes, api_version AS "apiVersion", created_at AS "createdAt", expires_at AS "expiresAt"`,
});

// The live business's keys and its sandbox's (docs/design-record.md#d19), newest first: by creation, then
// by id (time-ordered), so keys made in the same millisecond are newest first too.
const ACTIVE_KEYS_OF = defineStatement<[liveBusinessId: string, now: Date], ActiveApiKey & { sandbox: boolean; lastUsedAt: Date | null }>({
  name: 'active_api_keys_of_business',
  text: `SELECT k.id, k.prefix, k.name, k.scopes, k.api_version AS "apiVersion", k.created_at AS "createdAt",
       k.expires_at AS "expiresAt", k.last_used_at AS "lastUsedAt", b.live_business_id IS NOT NULL AS sandbox
  FROM api_keys k JOIN businesses b ON b.id = k.business_id
 WHERE (b.id = $1 OR b.live_business_id = $1) AND k.origin <> 'oauth' AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)
 ORDER BY k.created_at DESC, k.id DESC`,
});

const REVOKE_BY_ID = defineStatement<[businessId: string, id: string, now: Date], { prefix: string }>({
  name: 'revoke_api_key_by_id',
  text: `UPDATE api_keys SET revoked_at = now() WHERE business_id = $1 AND id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)
RETURNING prefix`,
});

/** A key of the business whatever its state, as a roll reads it before deciding. */
export interface StoredApiKey extends ActiveApiKey {
  origin: ApiKeyOrigin;
  revokedAt: Date | null;
}

// Locks the row until the transaction ends: a revocation or another roll of the key waits for it,
// then sees the key as this roll left it.
const KEY_FOR_UPDATE = defineStatement<[businessId: string, id: string], StoredApiKey>({
  name: 'api_key_for_update',
  text: `SELECT id, prefix, name, scopes, api_version AS "apiVersion", created_at AS "createdAt", expires_at AS "expiresAt",
       origin, revoked_at AS "revokedAt"
  FROM api_keys WHERE business_id = $1 AND id = $2 FOR UPDATE`,
});

const SET_EXPIRY = defineStatement<[businessId: string, id: string, expiresAt: Date]>({
  name: 'set_api_key_expiry',
  text: 'UPDATE api_keys SET expires_at = $3 WHERE business_id = $1 AND id = $2',
});

/** A credential's lookup from its row: a test credential's business is its sandbox, its slug and plan the live one's. */
export function lookupOf(row: ApiKeyLookupRow): ApiKeyLookup {
  return {
    keyId: row.key_id,
    keyName: row.key_name,
    prefix: row.prefix,
    scopes: row.scopes,
    keyCreatedAt: row.key_created_at,
    businessId: row.business_id,
    tenantId: row.tenant_id,
    businessSlug: row.business_slug,
    plan: row.plan,
    mode: row.sandbox ? 'test' : 'live',
    apiVersion: row.api_version,
    expiresAt: row.expires_at,
  };
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  /** The one lookup that precedes knowing the business: by the key's hash. */
  async findActiveByHash(keyHash: string): Promise<ApiKeyLookup | null> {
    const row = await this.database.maybeOne(FIND_ACTIVE_BY_HASH, [keyHash]);
    return row ? lookupOf(row) : null;
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.database.execute(INSERT_API_KEY, [
      key.id,
      key.businessId,
      key.memberId,
      key.name,
      key.prefix,
      key.keyHash,
      key.scopes,
      key.createdAt,
      key.revokedAt,
      key.apiVersion,
      key.origin,
    ]);
  }

  /**
   * Makes the key creations of the live business and its sandbox wait for each other until the
   * ambient transaction ends; only inside one.
   */
  async lockCreations(liveBusinessId: string): Promise<void> {
    if (!this.database.inTransaction()) throw new Error('lockCreations needs the transaction the key is inserted in.');
    await this.database.execute(LOCK_KEY_CREATION, [liveBusinessId]);
  }

  /** How many keys the business row (a live business, or a sandbox) holds active at `now`. */
  async countActive(businessId: string, now: Date): Promise<number> {
    return (await this.database.one(COUNT_ACTIVE_KEYS, [businessId, now])).n;
  }

  /** The keys the console made for the live business and its sandbox since then, revoked ones included, and the oldest's time. */
  consoleKeysSince(liveBusinessId: string, since: Date): Promise<{ n: number; oldest: Date | null }> {
    return this.database.one(CONSOLE_KEYS_SINCE, [liveBusinessId, since]);
  }

  /** The ids of the business's keys active at `now` with this prefix (a prefix is not unique). */
  async activeIdsByPrefix(businessId: string, prefix: string, now: Date): Promise<string[]> {
    return (await this.database.rows(ACTIVE_KEY_IDS_BY_PREFIX, [businessId, prefix, now])).map((row) => row.id);
  }

  /** Pins one key of the business active at `now` to another version; the key as it now is, or null when there is no such key. */
  setApiVersion(businessId: string, id: string, apiVersion: ApiVersion, now: Date): Promise<ActiveApiKey | null> {
    return this.database.maybeOne(SET_API_VERSION, [businessId, id, apiVersion, now]);
  }

  /** The keys of a live business and of its sandbox active at `now`, newest first. */
  activeKeysOf(liveBusinessId: string, now: Date): Promise<(ActiveApiKey & { sandbox: boolean; lastUsedAt: Date | null })[]> {
    return this.database.rows(ACTIVE_KEYS_OF, [liveBusinessId, now]);
  }

  /** Revokes one key of the business active at `now`; its prefix, or null when there is no such key. */
  async revokeById(businessId: string, id: string, now: Date): Promise<string | null> {
    return (await this.database.maybeOne(REVOKE_BY_ID, [businessId, id, now]))?.prefix ?? null;
  }

  /** One key of the business in any state, its row locked until the ambient transaction ends; only inside one. */
  async keyForUpdate(businessId: string, id: string): Promise<StoredApiKey | null> {
    if (!this.database.inTransaction()) throw new Error('keyForUpdate needs the transaction that changes the key.');
    return this.database.maybeOne(KEY_FOR_UPDATE, [businessId, id]);
  }

  /** Sets when one key of the business stops working. */
  async setExpiry(businessId: string, id: string, expiresAt: Date): Promise<void> {
    await this.database.execute(SET_EXPIRY, [businessId, id, expiresAt]);
  }
}
