import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { ApiKeyLookup } from '../api-keys/api-keys.repository.js';
import { LookupCache } from '../caching/lookup-cache.js';
import { consoleOrigin } from '../console-auth/console-origin.js';
import { AccessTokenCallers } from './access-token-callers.js';
import { OAuthGrantsRepository } from './oauth-grants.repository.js';
import { oauthResourceUrl, type OAuthResource } from './oauth-resources.js';
import { ACCESS_TOKEN_PREFIX } from './oauth-server-options.js';
import { oauthTokenHash } from './oauth-token-hash.js';

const MAX_CACHED_TOKENS = 10_000;

/**
 * Access tokens as the API and the MCP server take them (docs/design-record.md#d30): looked up by
 * their hash, for one resource. Like keys, answers are kept AUTH_CACHE_TTL_MS, so a revocation
 * (a grant in the Connections page, a token at the revocation endpoint) is refused by every
 * instance within that time without anything broadcast.
 */
@Injectable()
export class OAuthAccessTokens extends AccessTokenCallers {
  private readonly cache = new LookupCache<ApiKeyLookup | null>(MAX_CACHED_TOKENS);
  private readonly origin: string;

  constructor(
    private readonly config: AppConfig,
    private readonly grants: OAuthGrantsRepository,
  ) {
    super();
    this.origin = consoleOrigin(config);
  }

  async callerOf(token: string, resource: OAuthResource): Promise<ApiKeyLookup | null> {
    // Better Auth stores an access token without its prefix.
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
    const hash = oauthTokenHash(token.slice(ACCESS_TOKEN_PREFIX.length));
    const cacheKey = `${resource}:${hash}`;
    const now = Date.now();
    const cached = this.cache.get(cacheKey, now);
    if (cached !== undefined) return cached;
    const caller = await this.grants.callerOfAccessToken(hash, oauthResourceUrl(this.origin, resource));
    this.cache.set(cacheKey, caller, now + this.config.AUTH_CACHE_TTL_MS);
    return caller;
  }
}
