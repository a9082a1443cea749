import { Module } from '@nestjs/common';
import { NoticesModule } from '../notices/outbox/notices.module.js';
import { BusinessCountryRepository } from './business-country.repository.js';
import { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';

@Module({
  imports: [NoticesModule],
  providers: [ClientsRepository, ClientsService, BusinessCountryRepository],
  exports: [ClientsRepository, ClientsService, BusinessCountryRepository],
})
export class ClientsModule {}
