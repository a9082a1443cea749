import type { ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { LevelWithSilent } from 'pino';
import type { AppConfig, LogLevel } from '#config/app-config.js';

const PINO_LEVELS: Record<LogLevel, LevelWithSilent> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  info: 'info',
  debug: 'debug',
  verbose: 'trace',
  trace: 'trace',
};

/**
 * pino at LOG_LEVEL, for every process (json-logs.ts). In the API, one JSON line per request with
 * the request id, the key's prefix and the business. The request is logged as method and path
 * only: no headers (keys), no query, no body (phones, e-mails), so no secret or personal data can
 * reach the log through it. The line and the request's child logger are made by the API's
 * RequestLogging middleware; nestjs-pino (`useExisting`) only binds that child to the request,
 * and pino-http only supplies the root logger with its serializers. The worker serves no HTTP, so
 * only the root logger is used there.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    useExisting: true,
    pinoHttp: {
      level: PINO_LEVELS[config.LOG_LEVEL],
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: req.url?.split('?')[0] }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      },
    },
  };
}
