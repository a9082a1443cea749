import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { ServedContractModule } from '#contract/served-contract.module.js';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { ConsoleAuditModule } from '#core/console-audit/console-audit.module.js';
import { ConsoleAuthModule } from '#core/console-auth/console-auth.module.js';
import { FixturesModule } from '#core/fixtures/fixtures.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { OAuthClientsModule } from '#core/oauth/oauth-clients.module.js';
import { PaymentsModule } from '#core/payments/payments.module.js';
import { SalesModule } from '#core/sales/sales.module.js';
import { SandboxModule } from '#core/sandbox/sandbox.module.js';
import { SECRETS_KEY_CHECKED_AFTER_BOOT } from '#core/secrets/secrets-key-check.js';
import { WebhooksModule } from '#core/notices/webhooks.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { enableExtensions, EXTENSION_MIGRATIONS } from '#extensions/index.js';

/** withAdminContext runs SECRETS_KEY's start check itself, once booted (see SECRETS_KEY_CHECKED_AFTER_BOOT). */
@Global()
@Module({
  providers: [{ provide: SECRETS_KEY_CHECKED_AFTER_BOOT, useValue: true }],
  exports: [SECRETS_KEY_CHECKED_AFTER_BOOT],
})
class SecretsKeyCheckedAfterBoot {}

/** What the admin commands use: the domain modules the API uses, without HTTP, queues or Redis. */
@Module({})
export class AdminModule {
  static forRoot(config: AppConfig): DynamicModule {
    const extensions = enableExtensions(config.EXTENSIONS);
    return {
      module: AdminModule,
      imports: [
        ConfigModule.forRoot(config),
        // The enabled extensions' notice types are accepted as the core's (webhook endpoints, fixtures).
        ServedContractModule.forRoot(extensions),
        // `migrate` runs every registered extension's migrations, enabled or not (EXTENSION_MIGRATIONS).
        DatabaseModule.forRoot('scheduling-admin', 0, EXTENSION_MIGRATIONS),
        SecretsKeyCheckedAfterBoot,
        BusinessesModule,
        ApiKeysModule,
        ConsoleAuthModule,
        ConsoleAuditModule,
        FixturesModule,
        WebhooksModule,
        IdempotencyModule,
        PaymentsModule,
        SalesModule,
        SandboxModule,
        AppointmentWritesModule,
        OAuthClientsModule,
        ...extensions.map(async (extension) => (await extension.admin()).module),
      ],
    };
  }
}
