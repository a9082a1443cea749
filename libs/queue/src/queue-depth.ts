/** Jobs of one queue by state (BullMQ's names: waiting, active, delayed, failed, ...). */
export interface QueueJobCounts {
  queue: string;
  counts: Record<string, number>;
}

/**
 * How many jobs each queue holds, for /metrics: read from Redis when the service runs with
 * BullMQ, from the in-process queues when it runs without Redis. Rejects when it cannot tell.
 */
export abstract class QueueDepth {
  abstract jobCounts(): Promise<QueueJobCounts[]>;
}
