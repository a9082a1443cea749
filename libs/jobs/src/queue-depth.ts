import { Injectable } from '@nestjs/common';
import type { JobCounts } from './job-queue.js';
import { JobQueues } from './job-queues.js';

/** Jobs of one queue by state (BullMQ's names: waiting, active, delayed, failed, ...). */
export interface QueueJobCounts {
  queue: string;
  counts: JobCounts;
}

/** A scrape must not hang on a Redis that accepts the connection and then says nothing. */
const COUNT_TIMEOUT_MS = 1_000;

/**
 * How many jobs each queue holds, for /metrics: read from Redis when the service runs with
 * BullMQ, from the in-memory queues when it runs without Redis. Rejects when it cannot tell.
 */
@Injectable()
export class QueueDepth {
  constructor(private readonly queues: JobQueues) {}

  async jobCounts(): Promise<QueueJobCounts[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The queues did not answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        Promise.all(this.queues.all().map(async (queue) => ({ queue: queue.name, counts: await queue.counts() }))),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
