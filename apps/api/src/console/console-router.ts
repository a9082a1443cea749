import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { INestApplicationContext } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import express, { Router } from 'express';
import { consoleContext } from './console-context.js';
import { consoleErrors } from './console-errors.js';
import { consoleHeaders } from './console-headers.js';
import { loadSession } from './console-session.js';
import { auditRoutes } from './routes/audit.routes.js';
import { keysRoutes } from './routes/keys.routes.js';
import { signInRoutes } from './routes/sign-in.routes.js';
import { testModeRoutes } from './routes/test-mode.routes.js';
import { webhooksRoutes } from './routes/webhooks.routes.js';

export const CONSOLE_PATH = '/console';

const ASSETS = dirname(fileURLToPath(import.meta.url));
const asset = (name: string): string => readFileSync(join(ASSETS, 'assets', name), 'utf8');

/**
 * The owner's console (docs/design-record.md#d26): server-written pages under /console, mounted
 * before the API's routes and apart from them (no key, no JSON problems, its own policy). Forms
 * are read here (url-encoded, 16 KiB); every POST carries its form token.
 */
export function consoleRouter(app: INestApplicationContext): Router {
  const context = consoleContext(app);
  const router = Router();
  const styles = asset('console.css');
  const script = asset('console.js');
  router.use(consoleHeaders);
  router.get('/assets/console.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=300');
    res.send(styles);
  });
  router.get('/assets/console.js', (_req, res) => {
    res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=300');
    res.send(script);
  });
  router.use(cookieParser());
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));
  router.use(loadSession(context));
  router.use(context.csrf.protect);
  signInRoutes(router, context);
  keysRoutes(router, context);
  webhooksRoutes(router, context);
  testModeRoutes(router, context);
  auditRoutes(router, context);
  router.use(consoleErrors(context));
  return router;
}
