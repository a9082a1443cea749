import { Injectable } from '@nestjs/common';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { lookupOf, type ApiKeyLookup, type ApiKeyLookupRow } from '../api-keys/api-keys.repository.js';

type CallerRow = ApiKeyLookupRow & { client_id: string };

// An access token speaks for its grant while the token is unexpired and unrevoked, was issued for
// the resource asked about, its grant is active and its app not disabled (docs/design-record.md#d30).
// The grant's last use is recorded as a key's is: at most once a minute, in the same statement.
const FIND_CALLER_BY_ACCESS_TOKEN = defineStatement<[tokenHash: string, resource: string], CallerRow>({
  name: 'find_oauth_caller_by_access_token',
  text: `WITH token AS (
         SELECT t.reference_id FROM oauth_access_tokens t
          WHERE t.token = $1 AND t.revoked IS NULL AND t.expires_at > now() AND t.resources ? $2),
       used AS (
         UPDATE api_keys SET last_used_at = now()
          WHERE id::text = (SELECT reference_id FROM token) AND revoked_at IS NULL
            AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
         RETURNING id)
       SELECT k.id AS key_id, k.name AS key_name, k.prefix, k.scopes, k.created_at AS key_created_at, k.api_version,
              k.expires_at, k.oauth_client_id AS client_id,
              b.id AS business_id, coalesce(l.id, b.id) AS tenant_id, coalesce(l.slug, b.slug) AS business_slug, coalesce(l.plan, b.plan) AS plan,
              b.live_business_id IS NOT NULL AS sandbox
         FROM token JOIN api_keys k ON k.id::text = token.reference_id AND k.origin = 'oauth' AND k.revoked_at IS NULL
         JOIN oauth_clients c ON c.client_id = k.oauth_client_id AND c.disabled IS NOT TRUE
         JOIN businesses b ON b.id = k.business_id
         LEFT JOIN businesses l ON l.id = b.live_business_id`,
});

const ACTIVE_GRANT_OF_APP = defineStatement<[businessId: string, clientId: string], { id: string }>({
  name: 'active_oauth_grant_of_app',
  text: `SELECT id FROM api_keys WHERE business_id = $1 AND oauth_client_id = $2 AND origin = 'oauth' AND revoked_at IS NULL
 ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
});

const INSERT_GRANT = defineStatement<
  [
    id: string,
    businessId: string,
    memberId: string,
    name: string,
    prefix: string,
    scopes: string[],
    apiVersion: ApiVersion,
    clientId: string,
  ]
>({
  name: 'insert_oauth_grant',
  // key_hash is no HMAC a key could have (those are hex): no key can authenticate as a grant.
  text: `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, api_version, origin, oauth_client_id)
VALUES ($1, $2, $3, $4, $5, $9, $6, $7, 'oauth', $8)`,
});

const SET_GRANT_SCOPES = defineStatement<[id: string, name: string, scopes: string[], memberId: string]>({
  name: 'set_oauth_grant_scopes',
  text: `UPDATE api_keys SET name = $2, scopes = $3, member_id = $4 WHERE id = $1`,
});

/** One grant as the Connections page and `admin oauth-client` show it. */
export interface ListedGrant {
  id: string;
  appName: string;
  clientId: string;
  mode: 'live' | 'test';
  scopes: string[];
  apiVersion: ApiVersion;
  createdAt: Date;
  lastUsedAt: Date | null;
  approvedBy: string;
}

const ACTIVE_GRANTS_OF_BUSINESS = defineStatement<[liveBusinessId: string], ListedGrant>({
  name: 'active_oauth_grants_of_business',
  text: `SELECT k.id, k.name AS "appName", k.oauth_client_id AS "clientId", CASE WHEN b.live_business_id IS NULL THEN 'live' ELSE 'test' END AS mode,
       k.scopes, k.api_version AS "apiVersion", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", m.email AS "approvedBy"
  FROM api_keys k JOIN businesses b ON b.id = k.business_id JOIN members m ON m.id = k.member_id
 WHERE (b.id = $1 OR b.live_business_id = $1) AND k.origin = 'oauth' AND k.revoked_at IS NULL
 ORDER BY k.created_at DESC, k.id`,
});

const REVOKE_GRANT = defineStatement<[liveBusinessId: string, id: string], { id: string; name: string }>({
  name: 'revoke_oauth_grant',
  text: `UPDATE api_keys k SET revoked_at = now() FROM businesses b
 WHERE b.id = k.business_id AND (b.id = $1 OR b.live_business_id = $1) AND k.id = $2 AND k.origin = 'oauth' AND k.revoked_at IS NULL
RETURNING k.id, k.name`,
});

// Every token of the grant stops at once: the access tokens the API looks up, and the refresh
// tokens Better Auth's provider would otherwise still exchange.
const REVOKE_GRANT_TOKENS = defineStatement<[grantId: string]>({
  name: 'revoke_oauth_grant_tokens',
  text: `WITH a AS (UPDATE oauth_access_tokens SET revoked = now() WHERE reference_id = $1 AND revoked IS NULL)
UPDATE oauth_refresh_tokens SET revoked = now() WHERE reference_id = $1 AND revoked IS NULL`,
});

const REVOKE_GRANTS_OF_APP = defineStatement<[clientId: string], { id: string }>({
  name: 'revoke_oauth_grants_of_app',
  text: `UPDATE api_keys SET revoked_at = now() WHERE oauth_client_id = $1 AND origin = 'oauth' AND revoked_at IS NULL RETURNING id`,
});

/** What the consent page and the grant say of an app. */
export interface OAuthApp {
  clientId: string;
  name: string | null;
  disabled: boolean;
}

const APP = defineStatement<[clientId: string], OAuthApp>({
  name: 'oauth_app',
  text: `SELECT client_id AS "clientId", name, coalesce(disabled, false) AS disabled FROM oauth_clients WHERE client_id = $1`,
});

// A grant none of whose tokens can be used any more has ended (docs/design-record.md#d30): unused
// for 90 days its last refresh token expired, or the app revoked its tokens (RFC 7009). It is
// revoked so that the Connections page and the budget of credentials stop counting it. A grant
// younger than an hour may still be waiting for its code to be exchanged.
const END_UNUSABLE_GRANTS = defineStatement<[now: Date], { id: string }>({
  name: 'end_unusable_oauth_grants',
  text: `UPDATE api_keys k SET revoked_at = $1
 WHERE k.origin = 'oauth' AND k.revoked_at IS NULL AND k.created_at < $1::timestamptz - interval '1 hour'
   AND NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.reference_id = k.id::text AND r.revoked IS NULL AND r.expires_at > $1)
   AND NOT EXISTS (SELECT 1 FROM oauth_access_tokens a WHERE a.reference_id = k.id::text AND a.revoked IS NULL AND a.expires_at > $1)
RETURNING k.id`,
});

/** Grants: the credentials of api_keys that an owner's consent made (origin `oauth`), and their tokens. */
@Injectable()
export class OAuthGrantsRepository {
  constructor(private readonly database: Database) {}

  async callerOfAccessToken(tokenHash: string, resourceUrl: string): Promise<ApiKeyLookup | null> {
    const row = await this.database.maybeOne(FIND_CALLER_BY_ACCESS_TOKEN, [tokenHash, resourceUrl]);
    return row ? { ...lookupOf(row), app: { clientId: row.client_id, name: row.key_name } } : null;
  }

  app(clientId: string): Promise<OAuthApp | null> {
    return this.database.maybeOne(APP, [clientId]);
  }

  /** The active grant of the app on the business row (live or sandbox), locked; only inside a transaction. */
  async activeGrantForUpdate(businessId: string, clientId: string): Promise<string | null> {
    if (!this.database.inTransaction()) throw new Error('activeGrantForUpdate needs the transaction that changes the grant.');
    return (await this.database.maybeOne(ACTIVE_GRANT_OF_APP, [businessId, clientId]))?.id ?? null;
  }

  async insert(grant: {
    id: string;
    businessId: string;
    memberId: string;
    appName: string;
    prefix: string;
    scopes: string[];
    apiVersion: ApiVersion;
    clientId: string;
  }): Promise<void> {
    await this.database.execute(INSERT_GRANT, [
      grant.id,
      grant.businessId,
      grant.memberId,
      grant.appName,
      grant.prefix,
      grant.scopes,
      grant.apiVersion,
      grant.clientId,
      `oauth-grant:${grant.id}`,
    ]);
  }

  async setScopes(id: string, appName: string, scopes: string[], memberId: string): Promise<void> {
    await this.database.execute(SET_GRANT_SCOPES, [id, appName, scopes, memberId]);
  }

  activeGrantsOf(liveBusinessId: string): Promise<ListedGrant[]> {
    return this.database.rows(ACTIVE_GRANTS_OF_BUSINESS, [liveBusinessId]);
  }

  /** Revokes the grant and all its tokens, in one transaction; the app's name, or null when no such active grant. */
  async revoke(liveBusinessId: string, id: string): Promise<string | null> {
    return this.database.transactional(async () => {
      const revoked = await this.database.maybeOne(REVOKE_GRANT, [liveBusinessId, id]);
      if (!revoked) return null;
      await this.database.execute(REVOKE_GRANT_TOKENS, [id]);
      return revoked.name;
    });
  }

  /** Revokes the grants none of whose tokens can be used at `now`; how many. */
  async endUnusable(now: Date): Promise<number> {
    return (await this.database.rows(END_UNUSABLE_GRANTS, [now])).length;
  }

  /** Revokes every grant of the app and their tokens (the app itself revoked); how many grants. */
  async revokeAllOfApp(clientId: string): Promise<number> {
    return this.database.transactional(async () => {
      const grants = await this.database.rows(REVOKE_GRANTS_OF_APP, [clientId]);
      for (const grant of grants) await this.database.execute(REVOKE_GRANT_TOKENS, [grant.id]);
      return grants.length;
    });
  }
}
