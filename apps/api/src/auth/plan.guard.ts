import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '#core/errors/domain-error.js';
import { planHasIntegrations } from '#core/businesses/plan.js';
import type { ApiRequest } from '#http/api-request.js';
import { isPublicRoute } from './is-public-route.js';

/** Third gate (docs/design-record.md#d2): only plans with integrations use the API. */
@Injectable()
export class PlanGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const { plan } = context.switchToHttp().getRequest<ApiRequest>().apiKey!;
    if (!planHasIntegrations(plan)) {
      throw new DomainError('PLAN_INTEGRATIONS', `The ${plan} plan has no integrations; upgrade to Solo or Team.`);
    }
    return true;
  }
}
