import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's own logger prints failed statements with their parameters on stdout, which would put
 * phones and e-mails in logs and corrupt the admin command's JSON output. This one reports
 * through Nest's logger (stderr for errors) and never includes parameters.
 */
export class DatabaseLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    const message = error instanceof Error ? error.message : error;
    this.logger.debug(`Query failed: ${message} [${query.slice(0, 200)}]`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query (${time} ms): ${query.slice(0, 200)}`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
