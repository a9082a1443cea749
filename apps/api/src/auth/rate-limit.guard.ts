import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { DomainError } from '#core/errors/domain-error.js';
import { rateLimitHeaders } from '#core/rate-limit/rate-limit-headers.js';
import { API_RATE_LIMIT_POLICY } from '#core/rate-limit/rate-limit.types.js';
import { ApiRateLimiter } from '#core/rate-limit/api-rate-limiter.js';
import type { ApiRequest } from '#http/api-request.js';
import { isPublicRoute } from './is-public-route.js';

/** Second gate (docs/design-record.md#d2): 120 requests per rolling minute per key, shared by every instance (docs/design-record.md#d11). */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: ApiRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<Response>();
    const decision = await this.limiter.consume(req.apiKey!.keyId);
    const headers = rateLimitHeaders(decision, API_RATE_LIMIT_POLICY);
    const { 'Retry-After': retryAfter, ...always } = headers;
    // Set now, so that every later answer of this request (402, 403, 400, …) carries them too.
    for (const [name, value] of Object.entries(always)) res.setHeader(name, value);
    if (!decision.allowed) {
      throw new DomainError(
        'API_RATE_LIMIT',
        `More than ${API_RATE_LIMIT_POLICY.limit} requests in ${API_RATE_LIMIT_POLICY.windowSeconds} s for this key; retry after ${retryAfter} s.`,
        [],
        Number(retryAfter),
      );
    }
    return true;
  }
}
