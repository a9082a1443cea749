import type { LoggerService } from '@nestjs/common';

/**
 * The contexts in which Nest narrates its own start: every module initialised, every route mapped,
 * "started". Forty lines that say nothing an operator acts on, so they are logged at `debug`
 * (LOG_LEVEL=debug shows them); what the API itself says at start ("Listening on", warnings) stays.
 */
const NARRATION = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** The application's logger, with Nest's start-up narration moved from `log` down to `debug`. */
export class FrameworkNarrationAtDebug implements LoggerService {
  constructor(private readonly logger: LoggerService & Required<Pick<LoggerService, 'debug'>>) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && NARRATION.has(context)) this.logger.debug(message, ...optionalParams);
    else this.logger.log(message, ...optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.error(message, ...optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.warn(message, ...optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.debug(message, ...optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.verbose?.(message, ...optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.fatal?.(message, ...optionalParams);
  }
}
