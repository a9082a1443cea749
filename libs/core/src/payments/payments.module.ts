import { Module } from '@nestjs/common';
import { PaymentsRepository } from './payments.repository.js';

@Module({
  providers: [PaymentsRepository],
  exports: [PaymentsRepository],
})
export class PaymentsModule {}
