import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import type { Response } from 'express';
import { InjectRedis, type RedisClient } from '#core/redis/redis.module.js';
import { Public } from '../auth/route-access.decorators.js';

const CHECK_TIMEOUT_MS = 1500;

/** Liveness and readiness for orchestrators: served without a key, outside /v1/api and the rate limit. */
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectRedis() private readonly redis: RedisClient,
  ) {}

  /** The process serves HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Each dependency answers: 200 when all do, 503 naming the ones that do not. A process that
   * runs without Redis (IN_PROCESS_JOBS) depends on PostgreSQL only.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    const checks: HealthIndicatorFunction[] = [() => this.database.pingCheck('postgresql').withTimeout(CHECK_TIMEOUT_MS)];
    const redis = this.redis;
    if (redis) {
      checks.push(() =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            await redis.ping();
          })
          .withTimeout(CHECK_TIMEOUT_MS),
      );
    }
    try {
      return await this.health.check(checks);
    } catch (error) {
      // Terminus reports "not ready" as an exception carrying the per-dependency result; an
      // orchestrator wants that body with 503, not a problem document.
      if (error instanceof ServiceUnavailableException) {
        res.status(HttpStatus.SERVICE_UNAVAILABLE);
        return error.getResponse() as HealthCheckResult;
      }
      throw error;
    }
  }
}
