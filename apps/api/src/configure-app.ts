import type { NestExpressApplication } from '@nestjs/platform-express';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '#config/app-config.js';
import { ApiModule } from './api.module.js';
import { HttpMetrics } from './metrics/http-metrics.js';
import { jsonBodyMiddleware } from './http/json-body.js';
import { requestIdMiddleware } from './http/request-id.middleware.js';

export const API_PREFIX = 'v1/api';

/** Builds the API application exactly as production runs it; e2e tests call this too. */
export async function createApiApp(config?: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(app.get(HttpMetrics).middleware);
  app.use(jsonBodyMiddleware);
  // Operations endpoints live outside the versioned API.
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health/live', 'health/ready', 'metrics', 'docs', 'docs/reference.js'] });
  app.enableShutdownHooks();
  return app;
}
