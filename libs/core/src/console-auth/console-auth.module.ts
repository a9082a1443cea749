import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ConsoleAuthentication } from './console-authentication.js';
import { ConsoleLinks } from './console-links.service.js';

/** The console's sign-in links and sessions (docs/design-record.md#d26), for the API and the admin command line. */
@Module({
  imports: [BusinessesModule],
  providers: [ConsoleAuthentication, ConsoleLinks],
  exports: [ConsoleAuthentication, ConsoleLinks],
})
export class ConsoleAuthModule {}
