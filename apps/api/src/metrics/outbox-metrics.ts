import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ATTEMPT_OUTCOMES, NoticePipelineMetricsRepository, type OutboxBacklog } from '#core/notices/notice-pipeline-metrics.repository.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * Notice pipeline health, read from the database when Prometheus scrapes: how far the relay is
 * behind (outbox lag), how deliveries stand, and how the latest attempts ended. Read at scrape
 * time so every API instance reports the same truth whichever worker did the work.
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  /** The backlog read of the scrape under way, shared by its two gauges. */
  private backlogRead: Promise<OutboxBacklog> | null = null;

  constructor(
    private readonly metrics: HttpMetrics,
    private readonly pipeline: NoticePipelineMetricsRepository,
  ) {}

  onModuleInit(): void {
    const pipeline = this.pipeline;
    const backlog = () => this.backlogOfScrape();
    new Gauge({
      name: 'notices_outbox_pending',
      help: 'Change notices committed but not yet handed to the delivery queue.',
      registers: [this.metrics.registry],
      async collect() {
        this.set((await backlog()).unrelayed);
      },
    });
    new Gauge({
      name: 'notices_outbox_lag_seconds',
      help: 'Age of the oldest change notice not yet handed to the delivery queue (0 when none).',
      registers: [this.metrics.registry],
      async collect() {
        this.set((await backlog()).oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'notice_deliveries',
      help: 'Deliveries of change notices to endpoints, by status (PENDING = queued or retrying).',
      labelNames: ['status'],
      registers: [this.metrics.registry],
      async collect() {
        const counts = await pipeline.deliveriesByStatus();
        this.reset();
        for (const [status, count] of counts) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'notice_delivery_attempts_5m',
      help: 'Notice delivery attempts of the last 5 minutes, by outcome: delivered (2xx), http_error (another status), no_response (timeout, connection or address refused, not sent).',
      labelNames: ['outcome'],
      registers: [this.metrics.registry],
      async collect() {
        const counts = await pipeline.recentAttemptsByOutcome();
        for (const outcome of ATTEMPT_OUTCOMES) this.set({ outcome }, counts[outcome]);
      },
    });
  }

  /**
   * Both backlog gauges are collected together on every scrape (the registry collects all its
   * metrics at once): the first starts the read, the second joins it, so the backlog is read once
   * per scrape, not once per gauge.
   */
  private backlogOfScrape(): Promise<OutboxBacklog> {
    if (!this.backlogRead) {
      this.backlogRead = this.pipeline.outboxBacklog().finally(() => {
        this.backlogRead = null;
      });
    }
    return this.backlogRead;
  }
}
