import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { consoleOrigin } from '#core/console-auth/console-origin.js';
import { OFFLINE_ACCESS } from '#core/oauth/oauth-server-options.js';
import { oauthResourceUrl, type OAuthResource } from '#core/oauth/oauth-resources.js';
import { SCOPES } from '#core/scopes/scope.js';

/** Better Auth's base path: the authorization server's issuer is the origin followed by it. */
export const OAUTH_ISSUER_PATH = '/console/auth';

/** The provider's routes the API serves, and nothing else of Better Auth's (docs/design-record.md#d30). */
const PROVIDER_ROUTES: Readonly<Record<string, 'GET' | 'POST'>> = {
  [`${OAUTH_ISSUER_PATH}/oauth2/authorize`]: 'GET',
  [`${OAUTH_ISSUER_PATH}/oauth2/token`]: 'POST',
  [`${OAUTH_ISSUER_PATH}/oauth2/register`]: 'POST',
  [`${OAUTH_ISSUER_PATH}/oauth2/revoke`]: 'POST',
};

/** RFC 8414's address for an issuer with a path, and the bare one clients try first. */
const AUTHORIZATION_SERVER_METADATA = [
  `/.well-known/oauth-authorization-server${OAUTH_ISSUER_PATH}`,
  '/.well-known/oauth-authorization-server',
];

/** RFC 9728's address of each resource's metadata. */
const PROTECTED_RESOURCES: Readonly<Record<string, OAuthResource>> = {
  '/.well-known/oauth-protected-resource/v1/api': 'rest',
  '/.well-known/oauth-protected-resource/mcp': 'mcp',
};

/**
 * The OAuth 2.1 server's HTTP surface (docs/design-record.md#d30), in front of the API's routes:
 * Better Auth's provider answers its four routes and its metadata; the two resources' metadata
 * say which server issues their tokens and which scopes exist.
 */
export function mountOAuthServer(app: NestExpressApplication): void {
  const authentication = app.get(ConsoleAuthentication);
  const origin = consoleOrigin(app.get(AppConfig));
  const provider = authentication.oauthRoutes();
  const metadata = authentication.authorizationServerMetadata();
  app.use((req: Request, res: Response, next: NextFunction) => {
    const method = PROVIDER_ROUTES[req.path];
    if (method) {
      if (req.method !== method) return void res.status(405).set('Allow', method).end();
      return void provider(req, res).catch(next);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (AUTHORIZATION_SERVER_METADATA.includes(req.path)) {
      return void metadata(new globalThis.Request(`${origin}${req.originalUrl}`))
        .then(async (answer) => {
          res
            .status(answer.status)
            .set('Cache-Control', 'public, max-age=3600')
            .type('application/json')
            .send(await answer.text());
        })
        .catch(next);
    }
    const resource = PROTECTED_RESOURCES[req.path];
    if (resource) {
      return void res.set('Cache-Control', 'public, max-age=3600').json(protectedResourceMetadata(origin, resource));
    }
    next();
  });
}

/** RFC 9728: the resource, its authorization server, and what can be asked for it. */
export function protectedResourceMetadata(origin: string, resource: OAuthResource) {
  return {
    resource: oauthResourceUrl(origin, resource),
    resource_name: resource === 'rest' ? 'Business Scheduling API' : 'Business Scheduling MCP server',
    authorization_servers: [`${origin}${OAUTH_ISSUER_PATH}`],
    scopes_supported: [...SCOPES, OFFLINE_ACCESS],
    bearer_methods_supported: ['header'],
    resource_documentation: `${origin}/docs`,
  };
}
