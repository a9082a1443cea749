import { Module } from '@nestjs/common';
import { QueueDepth } from '#queue/queue-depth.js';
import { ApiQueues, BullQueueDepth } from './api-queues.js';

/** The worker's BullMQ queues in the API (with Redis): their depth for /metrics and the dashboard. */
@Module({
  providers: [ApiQueues, { provide: QueueDepth, useClass: BullQueueDepth }],
  exports: [ApiQueues, QueueDepth],
})
export class ApiQueuesModule {}
