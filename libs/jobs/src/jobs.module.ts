import { getQueueToken } from '@nestjs/bullmq';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { openRedis, redisKeyPrefix } from '#core/redis/redis-connection.js';
import { REDIS_CLIENT, type RedisClient } from '#core/redis/redis.module.js';
import { BullmqDriver } from './drivers/bullmq/bullmq-driver.js';
import { InMemoryDriver } from './drivers/in-memory/in-memory-driver.js';
import { JobQueues } from './job-queues.js';
import { JobsDriver } from './jobs-driver.js';
import { QueueDepth } from './queue-depth.js';
import { QUEUE_NAMES } from './queues.js';

/** Which driver runs the job queues of a process. */
export type JobsDriverChoice =
  /** The worker: BullMQ, which opens Redis connections of its own and waits for Redis when it is away. */
  | { driver: 'bullmq'; redis: 'own-connections' }
  /** The API beside the worker: BullMQ on the process's Redis client (RedisModule), which fails fast. */
  | { driver: 'bullmq'; redis: 'process-client' }
  /** The API without Redis (IN_PROCESS_JOBS): the queues are in its memory. */
  | { driver: 'in-memory' };

function bullmqDriverProvider(redis: 'own-connections' | 'process-client'): Provider {
  switch (redis) {
    case 'own-connections':
      return {
        provide: BullmqDriver,
        inject: [AppConfig],
        useFactory: (config: AppConfig) =>
          new BullmqDriver(
            // BullMQ needs maxRetriesPerRequest: null on the connections it blocks on; it duplicates a cluster's.
            config.REDIS_CLUSTER ? openRedis(config, { maxRetriesPerRequest: null }) : { url: config.REDIS_URL },
            redisKeyPrefix(config),
          ),
      };
    case 'process-client':
      return {
        provide: BullmqDriver,
        inject: [AppConfig, REDIS_CLIENT],
        useFactory: (config: AppConfig, client: RedisClient) => {
          if (!client) throw new Error('The BullMQ driver needs Redis; with IN_PROCESS_JOBS pick the in-memory driver');
          return new BullmqDriver(client, redisKeyPrefix(config));
        },
      };
  }
}

function driverProviders(choice: JobsDriverChoice): Provider[] {
  switch (choice.driver) {
    case 'bullmq':
      return [
        bullmqDriverProvider(choice.redis),
        { provide: JobsDriver, useExisting: BullmqDriver },
        // Under @nestjs/bullmq's names too, for code that looks into Redis through them (tests).
        ...QUEUE_NAMES.map((name) => ({
          provide: getQueueToken(name),
          inject: [BullmqDriver],
          useFactory: (driver: BullmqDriver) => driver.bullQueue(name),
        })),
      ];
    case 'in-memory':
      return [{ provide: JobsDriver, useFactory: () => new InMemoryDriver() }];
  }
}

/**
 * The job queues (JobQueues) on the driver the process picked, and their depth for /metrics.
 * Global, so that whatever adds or processes jobs finds them. Needs the app's ConfigModule (and
 * RedisModule for `process-client`).
 */
@Module({})
export class JobsModule {
  static forRoot(choice: JobsDriverChoice): DynamicModule {
    const drivers = driverProviders(choice);
    return {
      module: JobsModule,
      global: true,
      providers: [...drivers, JobQueues, QueueDepth],
      exports: [...drivers.map((provider) => ('provide' in provider ? provider.provide : provider)), JobQueues, QueueDepth],
    };
  }
}
