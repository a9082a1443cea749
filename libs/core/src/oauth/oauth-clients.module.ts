import { Module } from '@nestjs/common';
import { ConsoleAuthModule } from '../console-auth/console-auth.module.js';
import { OAuthClientsRepository } from './oauth-clients.repository.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { OAuthModule } from './oauth.module.js';

/** The operator's management of OAuth apps (docs/design-record.md#d30), for the admin command line. */
@Module({
  imports: [ConsoleAuthModule, OAuthModule],
  providers: [OAuthClientsRepository, OAuthClientsService],
  exports: [OAuthClientsService],
})
export class OAuthClientsModule {}
