import { Logger } from '@nestjs/common';
import type { ConnectionOptions, Queue } from 'bullmq';
import type { JobQueue } from '../../job-queue.js';
import { JobsDriver } from '../../jobs-driver.js';
import { QUEUE_NAMES, type QueueName } from '../../queues.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { BULLMQ_QUEUE_SETTINGS } from './bullmq-queue-settings.js';

/**
 * BullMQ on the service's Redis. `connection` is either connection options (the worker: BullMQ
 * opens the connections it needs, and waits for Redis when it is away) or the process's own
 * client (the API: it only adds and counts, and must fail fast while Redis is away).
 */
export class BullmqDriver extends JobsDriver {
  private readonly queues = new Map<QueueName, BullmqJobQueue<unknown>>();

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly prefix: string,
  ) {
    super();
  }

  override queue<T>(name: QueueName): JobQueue<T> {
    return this.bullmqQueue(name) as JobQueue<T>;
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
