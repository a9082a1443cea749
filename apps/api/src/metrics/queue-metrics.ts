import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { QueueDepth } from '#jobs/queue-depth.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * Jobs per queue and state, read when Prometheus scrapes: from Redis (BullMQ) when the service
 * runs with it, from this process's in-memory queues when it runs without. While Redis does not
 * answer the series are absent rather than stale; the Redis client logs why.
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: HttpMetrics,
    private readonly depth: QueueDepth,
  ) {}

  onModuleInit(): void {
    const depth = this.depth;
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs in each job queue (notices, emails, maintenance) by state: waiting, active, delayed, prioritized, failed.',
      labelNames: ['queue', 'state'],
      registers: [this.metrics.registry],
      async collect() {
        this.reset();
        const queues = await depth.jobCounts().catch(() => []);
        for (const { queue, counts } of queues) {
          for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
        }
      },
    });
  }
}
