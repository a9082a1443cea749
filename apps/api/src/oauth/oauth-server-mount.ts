import type { NestExpressApplication } from '@nestjs/platform-express';

/**
 * Mounts the OAuth server's routes and metadata on the application (oauth-server-routes.ts). A
 * token rather than the function itself: the server is Better Auth's, which only the console's
 * module loads, so an API without the console (CONSOLE=off) never loads it
 * (docs/design-record.md#per-request-cost, "What an API without the console loads").
 */
export const OAUTH_SERVER_MOUNT = 'OAuthServerMount';

export interface OAuthServerMount {
  mount(app: NestExpressApplication): void;
}
