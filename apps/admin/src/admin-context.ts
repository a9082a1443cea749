import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '#config/app-config.js';
import { SecretsKeyCheck } from '#core/secrets/secrets-key-check.js';
import { AdminModule } from './admin.module.js';

/**
 * Boots the admin application (no HTTP server), runs one command in it and closes it, so the
 * database pool never outlives the command and the process can end by itself. SECRETS_KEY is
 * checked first (docs/design-record.md#d25), unless `checkSecretsKey` is false: `migrate`, which
 * opens no secret and runs before the table of check values exists.
 */
export async function withAdminContext<T>(
  config: AppConfig,
  work: (app: INestApplicationContext) => Promise<T>,
  options: { checkSecretsKey?: boolean } = {},
): Promise<T> {
  // Nest's own log lines would mix with the JSON on stdout; abortOnError: false makes a failed
  // boot (database unreachable, a refused SECRETS_KEY) throw here instead of ending the process.
  const app = await NestFactory.createApplicationContext(AdminModule.forRoot(config), {
    logger: false,
    abortOnError: false,
  });
  try {
    // Checked here rather than by a start hook, so that a refusal still closes the pool below.
    if (options.checkSecretsKey !== false) await app.get(SecretsKeyCheck).verify();
    return await work(app);
  } finally {
    await app.close();
  }
}
