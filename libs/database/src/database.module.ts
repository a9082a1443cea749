import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { Database } from './database.js';

@Global()
@Module({})
export class DatabaseModule {
  /**
   * @param retryAttempts connection attempts at start: long-running processes wait for the
   *   database; a one-shot command should fail at once.
   */
  static forRoot(applicationName: string, retryAttempts = 9): DynamicModule {
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
