import { performance } from 'node:perf_hooks';
import { jest } from '@jest/globals';
import type { NoticePipelineMetricsRepository } from '#core/notices/outbox/notice-pipeline-metrics.repository.js';
import { HttpMetrics } from './http-metrics.js';
import { OutboxMetrics, PIPELINE_SNAPSHOT_TTL_MS } from './outbox-metrics.js';

/** A pipeline whose backlog changes at every read, counting the reads of each aggregate. */
function countingPipeline() {
  const reads = { backlog: 0, deliveries: 0, attempts: 0 };
  const pipeline = {
    outboxBacklog: () => {
      reads.backlog += 1;
      return Promise.resolve({ unrelayed: reads.backlog * 10, oldestAgeSeconds: reads.backlog });
    },
    deliveriesByStatus: () => {
      reads.deliveries += 1;
      return Promise.resolve(new Map([['PENDING', 2]]));
    },
    recentAttemptsByOutcome: () => {
      reads.attempts += 1;
      return Promise.resolve({ delivered: 1, http_error: 0, no_response: 0 });
    },
  } as unknown as NoticePipelineMetricsRepository;
  return { reads, pipeline };
}

describe('OutboxMetrics', () => {
  let now: number;
  beforeEach(() => {
    now = 1_000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads each aggregate once for all its gauges, then serves every scrape of the next 15 s from that read', async () => {
    const metrics = new HttpMetrics();
    const { reads, pipeline } = countingPipeline();
    new OutboxMetrics(metrics, pipeline).onModuleInit();

    const first = await metrics.registry.metrics();
    expect(reads).toEqual({ backlog: 1, deliveries: 1, attempts: 1 });
    expect(first).toMatch(/^notices_outbox_pending 10$/m);
    expect(first).toMatch(/^notices_outbox_lag_seconds 1$/m);

    for (let i = 0; i < 50; i++) await metrics.registry.metrics();
    now += PIPELINE_SNAPSHOT_TTL_MS - 1;
    const cached = await metrics.registry.metrics();
    expect(reads).toEqual({ backlog: 1, deliveries: 1, attempts: 1 });
    expect(cached).toMatch(/^notices_outbox_pending 10$/m);

    now += 1;
    const fresh = await metrics.registry.metrics();
    expect(reads).toEqual({ backlog: 2, deliveries: 2, attempts: 2 });
    expect(fresh).toMatch(/^notices_outbox_pending 20$/m);
    expect(fresh).toMatch(/^notices_outbox_lag_seconds 2$/m);
    expect(fresh).toMatch(/^notice_deliveries\{status="PENDING"\} 2$/m);
    expect(fresh).toMatch(/^notice_delivery_attempts_5m\{outcome="delivered"\} 1$/m);
  });

  it('does not keep a failed read', async () => {
    const metrics = new HttpMetrics();
    const { reads, pipeline } = countingPipeline();
    const backlog = pipeline.outboxBacklog.bind(pipeline);
    let fail = true;
    pipeline.outboxBacklog = () => (fail ? Promise.reject(new Error('database down')) : backlog());
    new OutboxMetrics(metrics, pipeline).onModuleInit();
    await expect(metrics.registry.metrics()).rejects.toThrow('database down');
    fail = false;
    expect(await metrics.registry.metrics()).toMatch(/^notices_outbox_pending 10$/m);
    expect(reads.backlog).toBe(1);
  });
});
