import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '#config/app-config.js';

/**
 * The process's Redis client, or null when it runs without Redis (IN_PROCESS_JOBS): every user
 * must say what it does then, so the type carries the null rather than a client that never connects.
 */
export type RedisClient = Redis | null;

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
export const InjectRedis = (): ParameterDecorator => Inject(REDIS_CLIENT);

/** Fail fast while Redis is away: callers have their own fallbacks and must not queue behind it. */
export function createRedisClient(url: string, logger: Logger): Redis {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  let lastLogged = 0;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastLogged > 10_000) {
      lastLogged = now;
      logger.error(`Redis connection error: ${error.message}`);
    }
  });
  return client;
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@InjectRedis() private readonly redis: RedisClient) {}

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RedisClient =>
        config.IN_PROCESS_JOBS ? null : createRedisClient(config.REDIS_URL, new Logger('Redis')),
    },
    RedisLifecycle,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
