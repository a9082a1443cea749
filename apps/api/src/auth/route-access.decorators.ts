import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'publicRoute';

/** A route served without a key and outside the rate limit (the contract, docs, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

export const READS_OWN_BODY = 'readsOwnBody';

/**
 * A route that reads its JSON body itself, after authenticating its caller its own way (the remote
 * MCP server's access tokens): JsonBodyGuard leaves the body unread, so no byte of it is read for a
 * caller that is refused (docs/design-record.md#d25).
 */
export const ReadsOwnBody = (): MethodDecorator & ClassDecorator => SetMetadata(READS_OWN_BODY, true);
