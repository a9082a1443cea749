import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '#config/app-config.js';

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
  constructor(@InjectRedis() private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => createRedisClient(config.REDIS_URL, new Logger('Redis')),
    },
    RedisLifecycle,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
