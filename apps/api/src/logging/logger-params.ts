import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { LevelWithSilent } from 'pino';
import type { AppConfig, LogLevel } from '#config/app-config.js';
import type { ApiRequest } from '../http/api-request.js';

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
 * One JSON line per request with the request id, the key's prefix and the business. The
 * request is logged as method and path only: no headers (keys), no query, no body (phones,
 * e-mails), so no secret or personal data can reach the log through it.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: PINO_LEVELS[config.LOG_LEVEL],
      genReqId: (req: IncomingMessage) => (req as ApiRequest).requestId,
      // Binds the request id once, as "requestId", on every line logged during the request.
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId' },
      // Known once the key guard has run; evaluated again when the request completes.
      customProps: (req: IncomingMessage) => {
        const { apiKey } = req as ApiRequest;
        return { keyPrefix: apiKey?.prefix, business: apiKey?.businessSlug };
      },
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: req.url?.split('?')[0] }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      },
      autoLogging: { ignore: (req: IncomingMessage) => req.url?.startsWith('/health') === true || req.url === '/metrics' },
    },
  };
}
