import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/route-access.decorators.js';
import { HttpMetrics } from './http-metrics.js';

/** Prometheus scrape endpoint, outside /v1/api; expose it only on the internal network. */
@Controller('metrics')
@Public()
export class MetricsController {
  constructor(private readonly metrics: HttpMetrics) {}

  @Get()
  async metricsText(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
