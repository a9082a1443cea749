import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { ConsoleAuditModule } from '#core/console-audit/console-audit.module.js';
import { ConsoleAuthModule } from '#core/console-auth/console-auth.module.js';
import { ConsoleLinkLimits } from '#core/console-auth/console-link-limits.js';
import { ConsoleLinkRequests, SIGN_IN_MAILER } from '#core/console-auth/console-link-requests.service.js';
import { ConsoleFlashModule } from '#core/console-flash/console-flash.module.js';
import { SandboxModule } from '#core/sandbox/sandbox.module.js';
import { WebhooksModule } from '#core/notices/webhooks.module.js';
import { EventsModule } from '#core/notices/event-log/events.module.js';
import { mailTransportProvider } from '#jobs/processors/mail/mail-transport.js';
import { BusinessMemberGuard } from './business-member.guard.js';
import { ConsoleFlow } from './console-flow.js';
import { ConsoleRefusalInterceptor } from './console-refusal.interceptor.js';
import { ConsoleFormGuard } from './console-form.guard.js';
import { consoleHeaders } from './console-headers.js';
import { ConsoleSessionGuard } from './console-session.guard.js';
import { ContractInput } from './contract-input.js';
import { ConsoleAssetsController } from './controllers/assets.controller.js';
import { AuditController } from './controllers/audit.controller.js';
import { ConnectionsController } from './controllers/connections.controller.js';
import { OAuthConsentController } from './controllers/oauth-consent.controller.js';
import { OAuthModule } from '#core/oauth/oauth.module.js';
import { OAuthEndpointLimits } from '#core/oauth/oauth-endpoint-limits.js';
import { OAUTH_SERVER_MOUNT, type OAuthServerMount } from '../oauth/oauth-server-mount.js';
import { mountOAuthServer } from '../oauth/oauth-server-routes.js';
import { DeliveriesController } from './controllers/deliveries.controller.js';
import { EventsController } from './controllers/events.controller.js';
import { KeysController } from './controllers/keys.controller.js';
import { SignInController } from './controllers/sign-in.controller.js';
import { TestModeController } from './controllers/test-mode.controller.js';
import { WebhooksController } from './controllers/webhooks.controller.js';
import { EndpointsOwners } from './endpoints-owner.js';
import { TransportSignInMailer } from './sign-in-mailer.js';

const PAGES = [
  SignInController,
  KeysController,
  WebhooksController,
  DeliveriesController,
  EventsController,
  TestModeController,
  ConnectionsController,
  OAuthConsentController,
  AuditController,
];

/**
 * The owner's console (docs/design-record.md#d29): Nest controllers of the API app, on the domain
 * modules the API and the admin command line use, behind guards of its own (session, member,
 * form token) instead of the API's key.
 */
@Module({
  imports: [
    ConsoleAuthModule,
    ConsoleAuditModule,
    ConsoleFlashModule,
    BusinessesModule,
    ApiKeysModule,
    WebhooksModule,
    EventsModule,
    SandboxModule,
    OAuthModule,
  ],
  controllers: [ConsoleAssetsController, ...PAGES],
  providers: [
    mailTransportProvider,
    ConsoleLinkLimits,
    // The OAuth server is served with the console (docs/design-record.md#d30): its endpoints' limits.
    OAuthEndpointLimits,
    { provide: OAUTH_SERVER_MOUNT, useValue: { mount: mountOAuthServer } satisfies OAuthServerMount },
    ConsoleLinkRequests,
    { provide: SIGN_IN_MAILER, useClass: TransportSignInMailer },
    ConsoleSessionGuard,
    BusinessMemberGuard,
    ConsoleFormGuard,
    ConsoleFlow,
    ConsoleRefusalInterceptor,
    ContractInput,
    EndpointsOwners,
  ],
  exports: [ConsoleLinkRequests],
})
export class ConsoleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // The console's own policy and no-store (its pages may hold a secret), and its cookies read.
    consumer.apply(consoleHeaders, cookieParser()).forRoutes(ConsoleAssetsController, ...PAGES);
  }
}
