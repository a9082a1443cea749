import { SetMetadata } from '@nestjs/common';
import type { Scope } from '#core/scopes/scope.js';

export const REQUIRED_SCOPE = 'requiredScope';
export const PUBLIC_ROUTE = 'publicRoute';

/** The scope a route needs. Routes without it need only a valid key (GET /me). */
export const RequireScope = (scope: Scope): MethodDecorator => SetMetadata(REQUIRED_SCOPE, scope);

/** A route served without a key and outside the rate limit (the contract, docs, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
