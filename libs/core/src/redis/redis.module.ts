import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { openRedis, type RedisConnection } from './redis-connection.js';

/**
 * The process's Redis client, or null when it runs without Redis (IN_PROCESS_JOBS): every user
 * must say what it does then, so the type carries the null rather than a client that never connects.
 */
export type RedisClient = RedisConnection | null;

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
export const InjectRedis = (): ParameterDecorator => Inject(REDIS_CLIENT);

/** Fail fast while Redis is away: callers have their own fallbacks and must not queue behind it. */
export function createRedisClient(config: AppConfig, logger: Logger): RedisConnection {
  const client = openRedis(config, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
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
      useFactory: (config: AppConfig): RedisClient => (config.IN_PROCESS_JOBS ? null : createRedisClient(config, new Logger('Redis'))),
    },
    RedisLifecycle,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
