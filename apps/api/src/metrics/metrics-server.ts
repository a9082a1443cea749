import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * The Prometheus scrape endpoint, GET /metrics, on its own port (METRICS_PORT) and address
 * (METRICS_HOST, loopback by default, docs/design-record.md#d25): the public port serves no
 * metrics, and an operator opens this one to the monitoring network only. A bare node:http
 * server: nothing of the API's stack (keys, limits, body reading) applies to a scrape.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly metrics: HttpMetrics,
    private readonly config: AppConfig,
  ) {}

  /** Starts serving on METRICS_HOST; port 0 takes any free port. Resolves to the address and port listened on. */
  async listen(port: number): Promise<AddressInfo> {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.metrics.registry.contentType }).end(text),
        (error: unknown) => {
          this.logger.error(`Collecting metrics failed: ${error instanceof Error ? error.message : String(error)}`);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Collecting metrics failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.METRICS_HOST, () => resolve());
    });
    this.server = server;
    return server.address() as AddressInfo;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
