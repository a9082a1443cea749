import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { HttpMetrics } from './http-metrics.js';

interface OutboxRow {
  unrelayed: string;
  oldest_age_seconds: string | null;
}

interface DeliveryRow {
  status: string;
  count: string;
}

interface AttemptRow {
  outcome: AttemptOutcome;
  count: string;
}

/** How an attempt ended: a 2xx, another status, or no answer (timeout, refused connection or address, not sent). */
const ATTEMPT_OUTCOMES = ['delivered', 'http_error', 'no_response'] as const;
type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/**
 * Notice pipeline health, read from the database when Prometheus scrapes: how far the relay is
 * behind (outbox lag), how deliveries stand, and how the latest attempts ended. Read at scrape
 * time so every API instance reports the same truth whichever worker did the work.
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: HttpMetrics,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    const dataSource = this.dataSource;
    new Gauge({
      name: 'notices_outbox_pending',
      help: 'Change notices committed but not yet handed to the delivery queue.',
      registers: [this.metrics.registry],
      async collect() {
        const [row] = await dataSource.query<OutboxRow[]>(OUTBOX_SQL);
        this.set(Number(row?.unrelayed ?? 0));
      },
    });
    new Gauge({
      name: 'notices_outbox_lag_seconds',
      help: 'Age of the oldest change notice not yet handed to the delivery queue (0 when none).',
      registers: [this.metrics.registry],
      async collect() {
        const [row] = await dataSource.query<OutboxRow[]>(OUTBOX_SQL);
        this.set(Number(row?.oldest_age_seconds ?? 0));
      },
    });
    new Gauge({
      name: 'notice_deliveries',
      help: 'Deliveries of change notices to endpoints, by status (PENDING = queued or retrying).',
      labelNames: ['status'],
      registers: [this.metrics.registry],
      async collect() {
        const rows = await dataSource.query<DeliveryRow[]>(
          'SELECT status, count(*)::text AS count FROM notice_deliveries GROUP BY status',
        );
        this.reset();
        for (const row of rows) this.set({ status: row.status }, Number(row.count));
      },
    });
    new Gauge({
      name: 'notice_delivery_attempts_5m',
      help: 'Notice delivery attempts of the last 5 minutes, by outcome: delivered (2xx), http_error (another status), no_response (timeout, connection or address refused, not sent).',
      labelNames: ['outcome'],
      registers: [this.metrics.registry],
      async collect() {
        const rows = await dataSource.query<AttemptRow[]>(ATTEMPTS_SQL);
        for (const outcome of ATTEMPT_OUTCOMES) this.set({ outcome }, Number(rows.find((row) => row.outcome === outcome)?.count ?? 0));
      },
    });
  }
}

const ATTEMPTS_SQL = `SELECT CASE WHEN status_code BETWEEN 200 AND 299 THEN 'delivered'
                         WHEN status_code IS NOT NULL THEN 'http_error'
                         ELSE 'no_response' END AS outcome,
  count(*)::text AS count
  FROM delivery_attempts WHERE attempted_at > now() - interval '5 minutes' GROUP BY 1`;

const OUTBOX_SQL = `SELECT count(*)::text AS unrelayed,
  extract(epoch FROM now() - min(created_at))::text AS oldest_age_seconds
  FROM notices WHERE relayed_at IS NULL`;
