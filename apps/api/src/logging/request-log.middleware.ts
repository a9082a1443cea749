import { Injectable } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { ApiRequest } from '#http/api-request.js';

/** Requests that never get a line: probes and scrapes would drown the rest. */
const unlogged = (url: string): boolean => url.startsWith('/health') || url === '/metrics';

/**
 * The request's logger and its one line (docs/running.md, "Logs"; docs/design-record.md#per-request-cost).
 * Made here rather than by pino-http, which built three child loggers and serialised the request
 * on every request, even when no line would be written. A request gets one child (its
 * `requestId`, carried by every line logged while it runs: nestjs-pino, in `useExisting` mode,
 * binds `req.log` to the request); the line itself is built only when `info` is enabled, once the
 * response ends: the request (through the root logger's serializers), the key's prefix and
 * business once the key guard has run, the status and the response time.
 */
@Injectable()
export class RequestLogging {
  /** The application's root logger, with pino-http's serializers (#core/logging/logger-params.ts): read outside any request. */
  private readonly root: Logger;

  constructor(pino: PinoLogger) {
    this.root = pino.logger;
  }

  readonly middleware = (req: ApiRequest, res: Response, next: NextFunction): void => {
    const root = this.root;
    const log = root.child({ requestId: req.requestId });
    req.log = log;
    if (root.isLevelEnabled('info') && !unlogged(req.url)) {
      const startedAt = Date.now();
      let done = false;
      const complete = (error?: Error) => {
        if (done) return;
        done = true;
        res.removeListener('close', onEnd);
        res.removeListener('finish', onEnd);
        res.removeListener('error', complete);
        const { apiKey } = req;
        const line = log.child({ req, keyPrefix: apiKey?.prefix, business: apiKey?.businessSlug });
        const responseTime = Date.now() - startedAt;
        if (error || res.statusCode >= 500) {
          line.info({ res, err: error ?? new Error(`failed with status code ${res.statusCode}`), responseTime }, 'request errored');
        } else {
          line.info({ res, responseTime }, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
        }
      };
      const onEnd = () => complete();
      res.on('close', onEnd);
      res.on('finish', onEnd);
      res.on('error', complete);
    }
    next();
  };
}
