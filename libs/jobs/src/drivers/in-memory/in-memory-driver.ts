import { Logger } from '@nestjs/common';
import type { ConcurrencyLimiter, LimiterOptions } from '../../concurrency-limiter.js';
import type { JobQueue } from '../../job-queue.js';
import { JobsDriver } from '../../jobs-driver.js';
import type { QueueName } from '../../queues.js';
import { InMemoryConcurrencyLimiter } from './in-memory-concurrency-limiter.js';
import { InMemoryJobQueue } from './in-memory-job-queue.js';

/** Queues in this process's memory, for the API without Redis (IN_PROCESS_JOBS). */
export class InMemoryDriver extends JobsDriver {
  private readonly queues = new Map<QueueName, InMemoryJobQueue<unknown>>();

  override queue<T>(name: QueueName): JobQueue<T> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new InMemoryJobQueue<unknown>(name, new Logger(`${InMemoryJobQueue.name}:${name}`));
      this.queues.set(name, queue);
    }
    return queue as JobQueue<T>;
  }

  override limiter(options: LimiterOptions): ConcurrencyLimiter {
    return new InMemoryConcurrencyLimiter(options);
  }
}
