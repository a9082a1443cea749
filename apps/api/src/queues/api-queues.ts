import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AppConfig } from '#config/app-config.js';
import { InjectRedis, type RedisClient } from '#core/redis/redis.module.js';
import { EMAILS_QUEUE, MAINTENANCE_QUEUE, NOTICES_QUEUE } from '#queue/queues.js';
import { QueueDepth, type QueueJobCounts } from '#queue/queue-depth.js';

/** The BullMQ job states worth a metric (finished jobs are removed, so `completed` stays near 0). */
const COUNTED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** A scrape must not hang on a Redis that accepts the connection and then says nothing. */
const COUNT_TIMEOUT_MS = 1_000;

/**
 * The worker's queues as seen from the API, for the queue metrics and the operators' dashboard.
 * They share the API's Redis client, which fails fast while Redis is away instead of queueing
 * commands, and whose connection errors the RedisModule already logs (once per 10 s).
 */
@Injectable()
export class ApiQueues implements BeforeApplicationShutdown {
  readonly all: readonly Queue[];

  constructor(config: AppConfig, @InjectRedis() redis: RedisClient) {
    if (!redis) throw new Error('ApiQueues needs Redis; with IN_PROCESS_JOBS the API has no queues');
    this.all = [NOTICES_QUEUE, EMAILS_QUEUE, MAINTENANCE_QUEUE].map((name) => {
      const queue = new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX });
      // Without a listener an 'error' event would throw; the Redis client's own listener logs it.
      queue.on('error', () => undefined);
      return queue;
    });
  }

  /** Before the shared Redis client disconnects (in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.all.map((queue) => queue.close()));
  }
}

/** Queue depth read from Redis: the jobs of each queue by state. */
@Injectable()
export class BullQueueDepth extends QueueDepth {
  constructor(private readonly queues: ApiQueues) {
    super();
  }

  override async jobCounts(): Promise<QueueJobCounts[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        Promise.all(this.queues.all.map(async (queue) => ({ queue: queue.name, counts: await queue.getJobCounts(...COUNTED_STATES) }))),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
