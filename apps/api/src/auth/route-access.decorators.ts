import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'publicRoute';

/** A route served without a key and outside the rate limit (the contract, docs, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
