import { Module } from '@nestjs/common';
import { PaginationModule } from '../pagination/pagination.module.js';
import { SaleReadsRepository } from './sale-reads.repository.js';
import { SaleReadsService } from './sale-reads.service.js';

/** GET /sales and GET /sales/{id}. */
@Module({
  imports: [PaginationModule],
  providers: [SaleReadsRepository, SaleReadsService],
  exports: [SaleReadsRepository, SaleReadsService],
})
export class SaleReadsModule {}
