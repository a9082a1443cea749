import type { JobQueue } from './job-queue.js';
import type { QueueName } from './queues.js';

/**
 * Makes the job queues: BullMQ on Redis (BullmqDriver) for the worker and the API beside it, or
 * this process's memory (InMemoryDriver) for the API without Redis (IN_PROCESS_JOBS). Asking twice
 * for the same name gives the same queue.
 */
export abstract class JobsDriver {
  abstract queue<T>(name: QueueName): JobQueue<T>;
}
