import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { FailedAuthenticationLimiter } from '#core/rate-limit/failed-authentication-limiter.js';
import type { RateLimitDecision } from '#core/rate-limit/rate-limit.types.js';
import { setRequestTenant } from '#database/request-tenant.js';
import type { ApiRequest } from '#http/api-request.js';
import { clientAddress } from '../http/client-address.js';
import { headerOccurrences } from '#http/header-occurrences.js';
import { inProcessCallerOf } from '#http/in-process-caller.js';
import { isPublicRoute } from './is-public-route.js';

const INVALID = 'Send a valid API key as "Authorization: Bearer <key>" or "X-API-Key: <key>".';

/** First gate (docs/design-record.md#d2): who is calling. Missing, malformed, unknown and revoked keys look the same. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly failures: FailedAuthenticationLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    // A call the remote MCP server sends in process, for a caller it has authenticated itself
    // (docs/design-record.md#d30): no header to read, and nothing from the network can set it.
    const inProcess = inProcessCallerOf(req);
    if (inProcess) {
      req.apiKey = inProcess;
      setRequestTenant(inProcess.tenantId);
      return true;
    }
    const key = presentedKey(req);
    // Only a key the cache cannot answer costs a database lookup. Once the client's network has
    // used up its failures, only a key that authenticated recently is looked up: a flood is refused
    // before it costs the database, and a partner behind the same address or proxy is still served
    // (docs/design-record.md#d24). The address is worked out only when it is needed.
    const authenticated = key
      ? await this.keys.authenticate(key, {
          beforeDatabase: async (keyHash) => {
            const admitted = await this.failures.admitsLookup(clientAddress(req), keyHash);
            if (!admitted.allowed) this.refuseFlood(admitted);
          },
          afterDatabase: (keyHash, valid) => this.failures.recordLookup(keyHash, valid),
        })
      : null;
    if (!authenticated) {
      const recorded = await this.failures.recordFailure(clientAddress(req));
      if (!recorded.allowed) this.refuseFlood(recorded);
      throw new DomainError('API_KEY_INVALID', INVALID);
    }
    req.apiKey = authenticated;
    // From here on the request's statements draw on its business's share of the pool; the lookup
    // above was no tenant's (docs/design-record.md#pool-share-per-business).
    setRequestTenant(authenticated.tenantId);
    return true;
  }

  private refuseFlood(decision: RateLimitDecision): never {
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds ?? decision.resetSeconds));
    throw new DomainError(
      'API_RATE_LIMIT',
      `More than ${this.failures.policy.limit} failed authentications in ${this.failures.policy.windowSeconds} s from this address; retry after ${retryAfter} s.`,
      [],
      retryAfter,
    );
  }
}

/**
 * The key from either scheme; null when absent, malformed, or ambiguous: a credential header sent
 * more than once (Node would silently keep the first Authorization) or the two schemes disagreeing.
 */
function presentedKey(req: ApiRequest): string | null {
  if (headerOccurrences(req, 'authorization') > 1 || headerOccurrences(req, 'x-api-key') > 1) return null;
  const authorization = req.headers.authorization;
  const headerKey = req.headers['x-api-key'];
  if (Array.isArray(headerKey)) return null;
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match) return null;
    bearer = match[1];
  }
  if (bearer !== undefined && headerKey !== undefined && bearer !== headerKey.trim()) return null;
  return bearer ?? headerKey?.trim() ?? null;
}
