import type { DataSourceOptions } from 'typeorm';
import { DatabaseLogger } from './database-logger.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS, type MigrationClass } from './migrations.js';

export interface DatabaseConnectionSettings {
  url: string;
  /** Connections per process. */
  poolSize?: number;
  /** Longest wait for a connection of the pool (DATABASE_CONNECT_TIMEOUT_MS); see pool-wait.ts. */
  connectTimeoutMs?: number;
  applicationName?: string;
  /**
   * The registered extensions' migrations, run after the core's (extensions/index.ts hands them
   * over: a library does not know the extensions). Only a process that migrates needs them.
   */
  extensionMigrations?: readonly MigrationClass[];
}

/** The one description of how the service talks to PostgreSQL: the schema only changes by migrations. */
export function buildDataSourceOptions(settings: DatabaseConnectionSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities: ENTITIES,
    migrations: [...MIGRATIONS, ...(settings.extensionMigrations ?? [])],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // Failed queries usually surface as domain errors (a taken slot); the caller decides what to log.
    logger: new DatabaseLogger(),
    maxQueryExecutionTime: 1000,
    applicationName: settings.applicationName ?? 'scheduling-api',
    extra: {
      // Statements are written as they are sent, without waiting for the answers before them, so
      // that Database can put several in one round trip (database.ts).
      pipeline: true,
      max: settings.poolSize ?? 10,
      // A connection once opened is kept (pg's pool closed one idle for 10 s): a burst after a
      // quiet spell, such as another business's pings and deliveries failing at the same instant,
      // would otherwise wait for new connections, and every request queued behind it with it
      // (docs/design-record.md#d24, "The pool keeps its connections").
      idleTimeoutMillis: 0,
      // A request never waits forever for a connection or a query.
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 5000,
      statement_timeout: 15000,
      idle_in_transaction_session_timeout: 30000,
    },
  };
}
