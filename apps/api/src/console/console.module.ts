import { Module } from '@nestjs/common';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { ConsoleAuditModule } from '#core/console-audit/console-audit.module.js';
import { ConsoleAuthModule } from '#core/console-auth/console-auth.module.js';
import { ConsoleLinkLimits } from '#core/console-auth/console-link-limits.js';
import { ConsoleLinkRequests, SIGN_IN_MAILER } from '#core/console-auth/console-link-requests.service.js';
import { SandboxModule } from '#core/sandbox/sandbox.module.js';
import { WebhooksModule } from '#core/notices/webhooks.module.js';
import { mailTransportProvider } from '#jobs/processors/mail/mail-transport.js';
import { TransportSignInMailer } from './sign-in-mailer.js';

/** What the console's pages use (docs/design-record.md#d26): the domain modules the API and the admin command line use, and its sign-in. */
@Module({
  imports: [ConsoleAuthModule, ConsoleAuditModule, BusinessesModule, ApiKeysModule, WebhooksModule, SandboxModule],
  providers: [mailTransportProvider, ConsoleLinkLimits, ConsoleLinkRequests, { provide: SIGN_IN_MAILER, useClass: TransportSignInMailer }],
  exports: [ConsoleLinkRequests],
})
export class ConsoleModule {}
