import type { NestExpressApplication } from '@nestjs/platform-express';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '#config/app-config.js';
import { BullmqDriver } from '#jobs/drivers/bullmq/bullmq-driver.js';
import { QUEUE_DASHBOARD_PATH, queueDashboard } from './admin/queue-dashboard.js';
import { ApiModule } from './api.module.js';
import { HttpMetrics } from './metrics/http-metrics.js';
import { RequestLogging } from './logging/request-log.middleware.js';
import { useJsonLogs } from '#core/logging/json-logs.js';
import { requestIdMiddleware } from './http/request-id.middleware.js';
import { requestTenantScope } from './http/request-tenant-scope.js';
import { securityHeadersMiddleware } from './http/security-headers.js';
import { limitRequestTimes } from './http/server-timeouts.js';
import { oneLayer } from './http/one-layer.js';
import { weakEtag } from './http/weak-etag.js';
import { API_PREFIX } from './http/api-prefix.js';
import { defaultApiVersionHeader } from '#http/api-version.js';
import { API_INDEX_PATHS } from './docs/api-index.controller.js';
import { CONSOLE_ROUTES } from './console/console-paths.js';
import { OAUTH_SERVER_MOUNT, type OAuthServerMount } from './oauth/oauth-server-mount.js';
import { MCP_PATH } from './mcp/mcp.controller.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';

export { API_PREFIX };

/** Builds the API application exactly as production runs it; e2e tests call this too. */
export async function createApiApp(config?: AppConfig): Promise<NestExpressApplication> {
  return configureApiApp(await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), API_APP_OPTIONS));
}

/** How the API application is created: the API reads its bodies itself, after the key is checked (JsonBodyGuard). */
export const API_APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/** Everything around the routes of an application made of ApiModule (createApiApp, or a test's module with providers replaced). */
export function configureApiApp(app: NestExpressApplication): NestExpressApplication {
  useJsonLogs(app);
  // Before the first request, not during one (issue 38): parsing them blocks the event loop.
  app.get(AnswerShaper).loadVersions();
  app.disable('x-powered-by');
  app.set('etag', weakEtag);
  // Whom to believe about the client's scheme, host and address (TRUSTED_PROXIES hops).
  app.set('trust proxy', app.get(AppConfig).TRUSTED_PROXIES);
  limitRequestTimes(app.getHttpServer(), app.get(AppConfig));
  app.use(
    oneLayer(
      requestIdMiddleware,
      requestTenantScope,
      defaultApiVersionHeader,
      app.get(RequestLogging).middleware,
      securityHeadersMiddleware,
      app.get(HttpMetrics).middleware,
    ),
  );
  // Off unless configured: without the token the path is an unknown route (404). The dashboard
  // reads its own bodies, after its own token check.
  const { QUEUE_DASHBOARD_TOKEN, QUEUE_DASHBOARD_WRITE } = app.get(AppConfig);
  if (QUEUE_DASHBOARD_TOKEN) {
    app.use(QUEUE_DASHBOARD_PATH, ...queueDashboard(app.get(BullmqDriver).bullQueues(), QUEUE_DASHBOARD_TOKEN, QUEUE_DASHBOARD_WRITE));
  }
  // The OAuth server's routes and metadata come before the API's (docs/design-record.md#d30); its
  // sign-in and consent are console pages, so it is served with the console.
  if (app.get(AppConfig).CONSOLE) app.get<string, OAuthServerMount>(OAUTH_SERVER_MOUNT).mount(app);
  // Operations endpoints live outside the versioned API; so does the index, at / and /v1/api itself,
  // the owner's console (docs/design-record.md#d29) and the remote MCP server (#d30).
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      'health/live',
      'health/ready',
      'docs',
      'docs/reference.js',
      ...API_INDEX_PATHS,
      MCP_PATH,
      ...(app.get(AppConfig).CONSOLE ? CONSOLE_ROUTES : []),
    ],
  });
  return app;
}
