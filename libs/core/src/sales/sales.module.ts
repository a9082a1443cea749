import { Module } from '@nestjs/common';
import { BusinessesModule } from '../businesses/businesses.module.js';
import { ClientsModule } from '../clients/clients.module.js';
import { NoticesModule } from '../notices/outbox/notices.module.js';
import { ServicesModule } from '../services/services.module.js';
import { SalesRepository } from './sales.repository.js';
import { SalesService } from './sales.service.js';

@Module({
  imports: [BusinessesModule, ClientsModule, ServicesModule, NoticesModule],
  providers: [SalesRepository, SalesService],
  exports: [SalesRepository, SalesService],
})
export class SalesModule {}
