import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ClockModule } from '../clock/clock.module.js';
import { SandboxModule } from '../sandbox/sandbox.module.js';
import { AccessTokenCallers } from './access-token-callers.js';
import { OAuthAccessTokens } from './oauth-access-tokens.service.js';
import { OAuthGrantsRepository } from './oauth-grants.repository.js';
import { OAuthGrantsService } from './oauth-grants.service.js';

/** Grants and access tokens (docs/design-record.md#d30), for the API, the console and the admin command line. */
@Module({
  imports: [ApiKeysModule, BusinessesModule, ClockModule, SandboxModule],
  providers: [
    OAuthGrantsRepository,
    OAuthGrantsService,
    OAuthAccessTokens,
    { provide: AccessTokenCallers, useExisting: OAuthAccessTokens },
  ],
  exports: [OAuthGrantsService, OAuthGrantsRepository, AccessTokenCallers],
})
export class OAuthModule {}
