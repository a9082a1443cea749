import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '#config/app-config.js';
import { createApiApp, API_PREFIX } from './configure-app.js';
import { logsWritten } from './logging/logs-written.js';
import { MetricsServer } from './metrics/metrics-server.js';

try {
  const config = loadConfig();
  const app = await createApiApp(config);
  // On SIGTERM (or Ctrl-C): the jobs under way in this process (IN_PROCESS_JOBS) finish their attempt, the server stops
  // taking connections and lets the requests under way finish, the database and Redis close
  // last, and the process exits 0. Signals that come meanwhile are ignored.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.listen(config.PORT);
  const metrics = await app.get(MetricsServer).listen(config.METRICS_PORT);
  const logger = new Logger('Api');
  logger.log(`Listening on http://localhost:${config.PORT}/${API_PREFIX}`);
  const metricsHost = metrics.family === 'IPv6' ? `[${metrics.address}]` : metrics.address;
  logger.log(`Metrics on http://${metricsHost}:${metrics.port}/metrics`);
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
