import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { Database } from './database.js';
import type { MigrationClass } from './migrations.js';

@Global()
@Module({})
export class DatabaseModule {
  /**
   * @param retryAttempts connection attempts at start: long-running processes wait for the
   *   database; a one-shot command should fail at once.
   * @param extensionMigrations the registered extensions' migrations, for a process that migrates
   *   (the admin command line's `migrate`).
   */
  static forRoot(applicationName: string, retryAttempts = 9, extensionMigrations: readonly MigrationClass[] = []): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({
              url: config.DATABASE_URL,
              applicationName,
              poolSize: config.DATABASE_POOL_SIZE,
              connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
              extensionMigrations,
            }),
            retryAttempts,
            retryDelay: 2000,
          }),
        }),
      ],
      providers: [Database],
      exports: [Database],
    };
  }
}
