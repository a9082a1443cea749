import { Logger } from '@nestjs/common';
import type { ConnectionOptions, Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import type { RedisConnection } from '#core/redis/redis-connection.js';
import type { ConcurrencyLimiter, LimiterOptions } from '../../concurrency-limiter.js';
import type { JobQueue } from '../../job-queue.js';
import { JobsDriver } from '../../jobs-driver.js';
import { QUEUE_NAMES, type QueueName } from '../../queues.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { BULLMQ_QUEUE_SETTINGS } from './bullmq-queue-settings.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';

/**
 * BullMQ on the service's Redis. `connection` is either connection options (the worker: BullMQ
 * opens the connections it needs, and waits for Redis when it is away) or the process's own
 * client (the API: it only adds and counts, and must fail fast while Redis is away).
 */
export class BullmqDriver extends JobsDriver {
  private readonly queues = new Map<QueueName, BullmqJobQueue<unknown>>();
  private ownClient: RedisConnection | null = null;

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly prefix: string,
  ) {
    super();
  }

  override queue<T>(name: QueueName): JobQueue<T> {
    return this.bullmqQueue(name) as JobQueue<T>;
  }

  /** Slots in Redis: on the process's client when the driver was given one, else on a connection of the driver's. */
  override limiter(options: LimiterOptions): ConcurrencyLimiter {
    return new RedisConcurrencyLimiter(() => this.limiterClient(), this.prefix, options);
  }

  override async close(): Promise<void> {
    if (this.ownClient) await this.ownClient.quit();
    this.ownClient = null;
  }

  private limiterClient(): RedisConnection {
    if (this.connection instanceof Redis) return this.connection;
    // Like the queues' own connections: waits for a Redis that is away rather than failing at once.
    // Every delivery takes and gives back a slot: with auto-pipelining, the commands of the jobs
    // under way in one turn of the event loop go out in one write instead of one each.
    this.ownClient ??=
      this.connection instanceof Cluster
        ? this.connection.duplicate(undefined, { enableAutoPipelining: true })
        : new Redis((this.connection as { url: string }).url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
    return this.ownClient;
  }

  /** The BullMQ queue `name` itself, for the dashboard and for tests that look into Redis. */
  bullQueue(name: QueueName): Queue {
    return this.bullmqQueue(name).bullQueue as Queue;
  }

  /** Every queue of the service, for the operators' dashboard. */
  bullQueues(): Queue[] {
    return QUEUE_NAMES.map((name) => this.bullQueue(name));
  }

  private bullmqQueue(name: QueueName): BullmqJobQueue<unknown> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new BullmqJobQueue<unknown>(
        name,
        this.connection,
        this.prefix,
        BULLMQ_QUEUE_SETTINGS[name],
        new Logger(`${BullmqJobQueue.name}:${name}`),
      );
      this.queues.set(name, queue);
    }
    return queue;
  }
}
