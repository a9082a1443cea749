import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Database } from '#database/database.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * The businesses' shares of this process's database pool (docs/design-record.md#pool-share-per-business),
 * read when Prometheus scrapes: connections held by requests of a business, and requests waiting
 * for their business's turn, all businesses together (a business per label would make a series per
 * customer; a business's own count is Database.poolShare.heldBy).
 */
@Injectable()
export class PoolShareMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: HttpMetrics,
    private readonly database: Database,
  ) {}

  onModuleInit(): void {
    const share = this.database.poolShare;
    new Gauge({
      name: 'database_pool_share_held',
      help: "Database connections held by businesses' requests in this process, all businesses together.",
      registers: [this.metrics.registry],
      collect() {
        this.set(share.inAll().held);
      },
    });
    new Gauge({
      name: 'database_pool_share_waiting',
      help: "Requests waiting for their business's turn at the database pool in this process (a business at its share).",
      registers: [this.metrics.registry],
      collect() {
        this.set(share.inAll().waiting);
      },
    });
  }
}
