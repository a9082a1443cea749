import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { consoleOrigin } from '#core/console-auth/console-origin.js';
import { OAuthEndpointLimits, type OAuthEndpointKind } from '#core/oauth/oauth-endpoint-limits.js';
import { OFFLINE_ACCESS } from '#core/oauth/oauth-server-options.js';
import { oauthResourceUrl, type OAuthResource } from '#core/oauth/oauth-resources.js';
import { SCOPES } from '#core/scopes/scope.js';
import { clientAddress } from '../http/client-address.js';

/** Better Auth's base path: the authorization server's issuer is the origin followed by it. */
export const OAUTH_ISSUER_PATH = '/console/auth';

/**
 * The provider's routes the API serves, and nothing else of Better Auth's (docs/design-record.md#d30),
 * with the limit each counts against (authorize only leads the browser to a console page).
 */
const PROVIDER_ROUTES: Readonly<Record<string, { method: 'GET' | 'POST'; limit?: OAuthEndpointKind }>> = {
  [`${OAUTH_ISSUER_PATH}/oauth2/authorize`]: { method: 'GET' },
  [`${OAUTH_ISSUER_PATH}/oauth2/token`]: { method: 'POST', limit: 'token' },
  [`${OAUTH_ISSUER_PATH}/oauth2/register`]: { method: 'POST', limit: 'register' },
  [`${OAUTH_ISSUER_PATH}/oauth2/revoke`]: { method: 'POST', limit: 'token' },
};

/**
 * What a client in a web page may call from another origin: the metadata and the endpoints a
 * public client calls itself (no cookie is read there, so any origin may).
 */
function allowCrossOrigin(res: Response): void {
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  res.set('Access-Control-Allow-Methods', 'GET, POST');
}

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
  const limits = app.get(OAuthEndpointLimits);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const route = PROVIDER_ROUTES[req.path];
    const known = route !== undefined || AUTHORIZATION_SERVER_METADATA.includes(req.path) || PROTECTED_RESOURCES[req.path] !== undefined;
    if (!known) return next();
    if (route?.method !== 'GET') allowCrossOrigin(res);
    if (req.method === 'OPTIONS') return void res.status(204).end();
    if (route) {
      if (req.method !== route.method) return void res.status(405).set('Allow', route.method).end();
      if (!route.limit) return void provider(req, res).catch(next);
      const limit = route.limit;
      return void limits
        .admit(limit, clientAddress(req))
        .then((decision) => {
          if (decision.allowed) return provider(req, res);
          const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds ?? decision.resetSeconds));
          res
            .status(429)
            .set('Retry-After', String(retryAfter))
            .json({
              error: 'temporarily_unavailable',
              error_description: `Too many ${limit === 'register' ? 'registrations' : 'token requests'} from this address; retry after ${retryAfter} s.`,
            });
        })
        .catch(next);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.status(405).set('Allow', 'GET').end();
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
