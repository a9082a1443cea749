import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '#config/app-config.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { useJsonLogs } from '#core/logging/json-logs.js';
import { logsWritten } from '#core/logging/logs-written.js';
import { WorkerModule } from './worker.module.js';

try {
  const config = loadConfig();
  if (config.IN_PROCESS_JOBS) {
    throw new ConfigError(
      'IN_PROCESS_JOBS=true: the API process delivers notices and e-mails itself; the worker needs Redis (set REDIS_URL instead)',
    );
  }
  // The API's JSON lines (docs/running.md); what Nest says while it starts waits for that logger.
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  useJsonLogs(app);
  // The documents notices are shaped from, read now rather than at the first notice to an endpoint
  // pinned to an older version, which would hold every delivery behind the parse (issue 38).
  app.get(AnswerShaper).loadVersions();
  // On SIGTERM (or Ctrl-C) the relays stop, the jobs under way finish (JobQueues), then the
  // queues and the database close and the process exits 0. Signals that come meanwhile are ignored.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  new Logger('Worker').log('Worker started');
  // `npm start` (scripts/start.mjs) prints its banner once the worker and the API are ready.
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
