import { Module } from '@nestjs/common';
import { PaginationModule } from '../pagination/pagination.module.js';
import { ClientReadsService } from './client-reads.service.js';
import { ClientsModule } from './clients.module.js';

/** GET /clients (GET /clients/{id} is ClientsService's). */
@Module({
  imports: [ClientsModule, PaginationModule],
  providers: [ClientReadsService],
  exports: [ClientReadsService],
})
export class ClientReadsModule {}
