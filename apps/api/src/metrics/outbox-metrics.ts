import { performance } from 'node:perf_hooks';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import {
  ATTEMPT_OUTCOMES,
  NoticePipelineMetricsRepository,
  type AttemptOutcome,
  type OutboxBacklog,
} from '#core/notices/outbox/notice-pipeline-metrics.repository.js';
import { HttpMetrics } from './http-metrics.js';

/** How long one read of the database-backed gauges serves scrapes. */
export const PIPELINE_SNAPSHOT_TTL_MS = 15_000;

/** What the gauges show, read together. */
interface PipelineSnapshot {
  backlog: OutboxBacklog;
  deliveries: Map<string, number>;
  attempts: Record<AttemptOutcome, number>;
}

/**
 * Notice pipeline health, read from the database: how far the relay is behind (outbox lag), how
 * deliveries stand, and how the latest attempts ended. Read from the database, so every API
 * instance reports the same truth whichever worker did the work; the reads are aggregates (one
 * over 30 days of deliveries), so one snapshot serves every scrape for 15 s, and scrapes cost
 * the database nothing more under load however often they come.
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  private snapshot: { read: Promise<PipelineSnapshot>; at: number } | null = null;

  constructor(
    private readonly metrics: HttpMetrics,
    private readonly pipeline: NoticePipelineMetricsRepository,
  ) {}

  onModuleInit(): void {
    const current = () => this.currentSnapshot();
    const registers = [this.metrics.registry];
    new Gauge({
      name: 'notices_outbox_pending',
      help: 'Change notices committed but not yet handed to the delivery queue.',
      registers,
      async collect() {
        this.set((await current()).backlog.unrelayed);
      },
    });
    new Gauge({
      name: 'notices_outbox_lag_seconds',
      help: 'Age of the oldest change notice not yet handed to the delivery queue (0 when none).',
      registers,
      async collect() {
        this.set((await current()).backlog.oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'notice_deliveries',
      help: 'Deliveries of change notices to endpoints, by status (PENDING = queued or retrying).',
      labelNames: ['status'],
      registers,
      async collect() {
        const { deliveries } = await current();
        this.reset();
        for (const [status, count] of deliveries) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'notice_delivery_attempts_5m',
      help: 'Notice delivery attempts of the last 5 minutes, by outcome: delivered (2xx), http_error (another status), no_response (timeout, connection or address refused, not sent).',
      labelNames: ['outcome'],
      registers,
      async collect() {
        const { attempts } = await current();
        for (const outcome of ATTEMPT_OUTCOMES) this.set({ outcome }, attempts[outcome]);
      },
    });
  }

  /**
   * The snapshot of the last 15 s, or a new read. The gauges of one scrape are collected at once:
   * the first starts the read and the others join it. A failed read is not kept.
   */
  private currentSnapshot(): Promise<PipelineSnapshot> {
    const now = performance.now();
    if (this.snapshot && now - this.snapshot.at < PIPELINE_SNAPSHOT_TTL_MS) return this.snapshot.read;
    const read = this.readSnapshot();
    const snapshot = { read, at: now };
    this.snapshot = snapshot;
    read.catch(() => {
      if (this.snapshot === snapshot) this.snapshot = null;
    });
    return read;
  }

  private async readSnapshot(): Promise<PipelineSnapshot> {
    const [backlog, deliveries, attempts] = await Promise.all([
      this.pipeline.outboxBacklog(),
      this.pipeline.deliveriesByStatus(),
      this.pipeline.recentAttemptsByOutcome(),
    ]);
    return { backlog, deliveries, attempts };
  }
}
