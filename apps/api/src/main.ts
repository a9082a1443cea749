import 'reflect-metadata';
import type { AddressInfo, Server } from 'node:net';
import { Logger } from '@nestjs/common';
import { ConfigError, loadApiConfig } from '#config/app-config.js';
import { createApiApp, API_PREFIX } from './configure-app.js';
import { logsWritten } from '#core/logging/logs-written.js';
import { MetricsServer } from './metrics/metrics-server.js';

/** The address a server listens on, as a URL's host. */
const hostOf = ({ address, family }: AddressInfo): string => (family === 'IPv6' ? `[${address}]` : address);

try {
  const config = loadApiConfig();
  const app = await createApiApp(config);
  // On SIGTERM (or Ctrl-C): the jobs under way in this process (IN_PROCESS_JOBS) finish their attempt, the server stops
  // taking connections and lets the requests under way finish, the database and Redis close
  // last, and the process exits 0. Signals that come meanwhile are ignored.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // HOST unset: every interface (docs/design-record.md#d25); `npm start` names loopback.
  if (config.HOST === undefined) await app.listen(config.PORT);
  else await app.listen(config.PORT, config.HOST);
  const api = (app.getHttpServer() as Server).address() as AddressInfo;
  const metrics = await app.get(MetricsServer).listen(config.METRICS_PORT);
  const logger = new Logger('Api');
  logger.log(`Listening on http://${hostOf(api)}:${api.port}/${API_PREFIX}`);
  logger.log(`Metrics on http://${hostOf(metrics)}:${metrics.port}/metrics`);
  if (config.IN_PROCESS_JOBS) {
    logger.warn(
      'IN_PROCESS_JOBS: no Redis; this process delivers notices and e-mails and limits keys on its own (for trying and developing only)',
    );
  }
  // A parent that started this process with an IPC channel (`npm start`, scripts/start.mjs) prints
  // its banner below what every process says at start: it is told once the lines above are written.
  if (process.send) {
    await logsWritten(app);
    process.send('ready');
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
