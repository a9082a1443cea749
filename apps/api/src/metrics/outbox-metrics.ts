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

/**
 * Notice pipeline health, read from the database when Prometheus scrapes: how far the relay is
 * behind (outbox lag), and how deliveries stand. Read at scrape time so every API instance
 * reports the same truth whichever worker did the work.
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
  }
}

const OUTBOX_SQL = `SELECT count(*)::text AS unrelayed,
  extract(epoch FROM now() - min(created_at))::text AS oldest_age_seconds
  FROM notices WHERE relayed_at IS NULL`;
