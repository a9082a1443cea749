import type { ConcurrencyLimiter, LimiterOptions } from './concurrency-limiter.js';
import type { JobQueue } from './job-queue.js';
import type { QueueName } from './queues.js';

/**
 * Makes the job queues: BullMQ on Redis (BullmqDriver) for the worker and the API beside it, or
 * this process's memory (InMemoryDriver) for the API without Redis (IN_PROCESS_JOBS). Asking twice
 * for the same name gives the same queue.
 */
export abstract class JobsDriver {
  abstract queue<T>(name: QueueName): JobQueue<T>;

  /** A limit of work per key, shared as widely as the queues are (every worker, or this process). */
  abstract limiter(options: LimiterOptions): ConcurrencyLimiter;

  /** Lets go of what the driver holds besides its queues (called after they are closed). */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
