import type { INestApplicationContext } from '@nestjs/common';
import { Logger, LoggerModule } from 'nestjs-pino';
import { AppConfig } from '#config/app-config.js';
import { FrameworkNarrationAtDebug } from './framework-narration.js';
import { loggerParams } from './logger-params.js';

/**
 * The logger of every long-running process, the API's and the worker's alike: one JSON line per
 * event on stdout (pino) at LOG_LEVEL, as docs/running.md promises operators, so one log pipeline
 * reads both. Import the module, create the application with `bufferLogs: true` (so what Nest says
 * while it starts waits for this logger rather than going out as coloured text), then call
 * useJsonLogs.
 */
export const JsonLogsModule = LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: loggerParams });

/** Makes the JSON logger the application's, with Nest's start-up narration at `debug`. */
export function useJsonLogs(app: INestApplicationContext): void {
  app.useLogger(new FrameworkNarrationAtDebug(app.get(Logger)));
}
