import { Module } from '@nestjs/common';
import { PaginationModule } from '../pagination/pagination.module.js';
import { PaymentReadsRepository } from './payment-reads.repository.js';
import { PaymentReadsService } from './payment-reads.service.js';

/** GET /payments and GET /payments/{id}. */
@Module({
  imports: [PaginationModule],
  providers: [PaymentReadsRepository, PaymentReadsService],
  exports: [PaymentReadsRepository, PaymentReadsService],
})
export class PaymentReadsModule {}
