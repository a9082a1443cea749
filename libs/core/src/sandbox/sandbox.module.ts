import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ServicesModule } from '../services/services.module.js';
import { StaffModule } from '../staff/staff.module.js';
import { SandboxCatalogue } from './sandbox-catalogue.js';
import { SandboxRepository } from './sandbox.repository.js';
import { SandboxService } from './sandbox.service.js';

/** Test mode's sandboxes (docs/design-record.md#d19). */
@Module({
  imports: [BusinessesModule, ServicesModule, StaffModule],
  providers: [SandboxRepository, SandboxCatalogue, SandboxService],
  exports: [SandboxService],
})
export class SandboxModule {}
