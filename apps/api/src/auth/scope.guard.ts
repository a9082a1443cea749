import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '#core/errors/domain-error.js';
import type { ApiRequest } from '#http/api-request.js';
import { operationOf } from '#http/operation-metadata.js';

/** Fourth gate (docs/design-record.md#d2): the scope of the route's operation must be among the key's. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = operationOf(this.reflector, context)?.scope;
    if (!scope) return true;
    const { scopes } = context.switchToHttp().getRequest<ApiRequest>().apiKey!;
    if (!scopes.includes(scope)) {
      throw new DomainError('API_SCOPE_MISSING', `This operation needs the scope ${scope}, which the key does not have.`);
    }
    return true;
  }
}
