import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '#config/app-config.js';
import { AdminModule } from './admin.module.js';

/**
 * Boots the admin application (no HTTP server), runs one command in it and closes it, so the
 * database pool never outlives the command and the process can end by itself.
 */
export async function withAdminContext<T>(config: AppConfig, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  // Nest's own log lines would mix with the JSON on stdout; abortOnError: false makes a failed
  // boot (database unreachable) throw here instead of ending the process.
  const app = await NestFactory.createApplicationContext(AdminModule.forRoot(config), {
    logger: false,
    abortOnError: false,
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
