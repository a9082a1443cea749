import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(applicationName: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            buildDataSourceOptions({ url: config.DATABASE_URL, applicationName }),
        }),
      ],
    };
  }
}
