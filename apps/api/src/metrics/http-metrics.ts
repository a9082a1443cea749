import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The process's Prometheus registry and the HTTP metrics recorded for every response. */
@Injectable()
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP responses by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response end, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Express middleware: labels by the matched route template, so ids never become labels. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const end = this.duration.startTimer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ route, method: req.method });
      this.requests.inc({ route, method: req.method, status: String(res.statusCode) });
    });
    next();
  };
}
