import { Module, type DynamicModule, type INestApplicationContext, type InjectionToken, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { AdminModule } from '#admin/admin.module.js';
import type { AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { ServedContractModule } from '#contract/served-contract.module.js';
import { Database } from '#database/database.js';
import { DatabaseModule } from '#database/database.module.js';
import { WorkerModule } from '#worker/worker.module.js';
import { enableExtensions } from '#extensions/index.js';
import { testConfig } from './test-config.js';

export interface TestContextOptions {
  /**
   * The application to boot as its process does: `admin` (the domain modules, no Redis) or
   * `worker` (the queues and processors on Redis). Absent: only the configuration, the database
   * and `imports`.
   */
  app?: 'admin' | 'worker';
  /** Feature modules added to the application. */
  imports?: (Type | DynamicModule)[];
  /** Settings over testConfig()'s. */
  config?: Record<string, string>;
  /** Providers replaced by a value (a fake host lookup, a clock). */
  providers?: [InjectionToken, unknown][];
}

/**
 * Plain SQL for tests, on the context's connection pool: how a test arranges what no fixture can
 * say (an expired record, a stuck delivery) and reads what was stored. The service's own queries
 * are declared statements run by `Database`; a test's are not, so that a test checks the stored
 * rows and not what the repositories say about them.
 */
export interface TestSql {
  // Rows are typed at the call site, as with pg itself.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query<T = any>(text: string, params?: unknown[]): Promise<T>;
  /** Runs `work` in one transaction (SET LOCAL, DDL to roll back). */
  transaction<T>(work: (sql: TestSql) => Promise<T>): Promise<T>;
  /**
   * As query, in a transaction of its own whose synced rows keep the created_at and updated_at the
   * statement writes, not the change clock's stamp (docs/design-record.md#d27): rows with forged instants.
   */
  queryWithGivenStamps<T = any>(text: string, params?: unknown[]): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function sqlOn(runner: DataSource | EntityManager): TestSql {
  const transaction: TestSql['transaction'] = (work) => runner.transaction((manager) => work(sqlOn(manager)));
  return {
    query: (text, params) => runner.query(text, params),
    transaction,
    queryWithGivenStamps: (text, params) =>
      transaction(async (sql) => {
        await sql.query(`SELECT set_config('app.given_stamps', 'on', true)`);
        return sql.query(text, params);
      }),
  };
}

/** The one way tests write and read rows directly (see TestSql), given any of the test's applications. */
export function testSql(app: INestApplicationContext): TestSql {
  return sqlOn(app.get(DataSource, { strict: false }));
}

export interface TestContext {
  app: INestApplicationContext;
  config: AppConfig;
  database: Database;
  sql: TestSql;
  close(): Promise<void>;
}

function rootModule(options: TestContextOptions, config: AppConfig): DynamicModule {
  const application =
    options.app === 'admin'
      ? [AdminModule.forRoot(config)]
      : options.app === 'worker'
        ? [WorkerModule.forRoot(config)]
        : // As an application wires them: its configuration, its database and its served contract.
          [
            ConfigModule.forRoot(config),
            DatabaseModule.forRoot('scheduling-test', 0),
            ServedContractModule.forRoot(enableExtensions(config.EXTENSIONS)),
          ];
  @Module({})
  class TestContextModule {}
  return { module: TestContextModule, imports: [...application, ...(options.imports ?? [])] };
}

/**
 * The one way integration tests boot the service's code: an application context on the test
 * database with testConfig() (logs at error), as its process wires it, with only the providers
 * named replaced.
 */
export async function startTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const config = testConfig(options.config);
  let builder = Test.createTestingModule({ imports: [rootModule(options, config)] });
  for (const [token, value] of options.providers ?? []) builder = builder.overrideProvider(token).useValue(value);
  const moduleRef = await builder.compile();
  moduleRef.useLogger(['error']);
  const app = await moduleRef.init();
  return {
    app,
    config,
    database: app.get(Database, { strict: false }),
    sql: testSql(app),
    close: () => app.close(),
  };
}
