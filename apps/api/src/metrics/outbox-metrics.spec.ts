import type { NoticePipelineMetricsRepository } from '#core/notices/notice-pipeline-metrics.repository.js';
import { HttpMetrics } from './http-metrics.js';
import { OutboxMetrics } from './outbox-metrics.js';

/** A pipeline whose backlog changes at every read, counting the reads. */
function countingPipeline() {
  const reads = { backlog: 0 };
  const pipeline = {
    outboxBacklog: () => {
      reads.backlog += 1;
      return Promise.resolve({ unrelayed: reads.backlog * 10, oldestAgeSeconds: reads.backlog });
    },
    deliveriesByStatus: () => Promise.resolve(new Map([['PENDING', 2]])),
    recentAttemptsByOutcome: () => Promise.resolve({ delivered: 1, http_error: 0, no_response: 0 }),
  } as unknown as NoticePipelineMetricsRepository;
  return { reads, pipeline };
}

describe('OutboxMetrics', () => {
  it('reads the outbox backlog once per scrape, and both gauges show that one read', async () => {
    const metrics = new HttpMetrics();
    const { reads, pipeline } = countingPipeline();
    new OutboxMetrics(metrics, pipeline).onModuleInit();

    const first = await metrics.registry.metrics();
    expect(reads.backlog).toBe(1);
    expect(first).toMatch(/^notices_outbox_pending 10$/m);
    expect(first).toMatch(/^notices_outbox_lag_seconds 1$/m);

    const second = await metrics.registry.metrics();
    expect(reads.backlog).toBe(2);
    expect(second).toMatch(/^notices_outbox_pending 20$/m);
    expect(second).toMatch(/^notices_outbox_lag_seconds 2$/m);
    expect(second).toMatch(/^notice_deliveries\{status="PENDING"\} 2$/m);
    expect(second).toMatch(/^notice_delivery_attempts_5m\{outcome="delivered"\} 1$/m);
  });
});
