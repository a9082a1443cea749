import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ConsoleAuditModule } from '../console-audit/console-audit.module.js';
import { ConsoleAuthentication } from './console-authentication.js';
import { ConsoleLinks } from './console-links.service.js';
import { ConsoleSignInAudit } from './console-sign-in-audit.service.js';
import { ConsoleSignInsRepository } from './console-sign-ins.repository.js';

/** The console's sign-in links and sessions (docs/design-record.md#d26), for the API and the admin command line. */
@Module({
  imports: [BusinessesModule, ConsoleAuditModule],
  providers: [ConsoleAuthentication, ConsoleLinks, ConsoleSignInAudit, ConsoleSignInsRepository],
  exports: [ConsoleAuthentication, ConsoleLinks, ConsoleSignInAudit],
})
export class ConsoleAuthModule {}
