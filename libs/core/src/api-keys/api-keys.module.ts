import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ClockModule } from '../clock/clock.module.js';
import { SandboxModule } from '../sandbox/sandbox.module.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  imports: [BusinessesModule, ClockModule, SandboxModule],
  providers: [ApiKeysRepository, ApiKeysService],
  exports: [ApiKeysService, ApiKeysRepository],
})
export class ApiKeysModule {}
