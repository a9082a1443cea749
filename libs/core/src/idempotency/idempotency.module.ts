import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';
import { SealedAnswersRepository } from './sealed-answers.repository.js';
import { SealedAnswersResealer } from './sealed-answers-resealer.js';

@Module({
  imports: [SecretsModule],
  providers: [IdempotencyRepository, IdempotencyService, SealedAnswersRepository, SealedAnswersResealer],
  exports: [IdempotencyRepository, IdempotencyService, SealedAnswersResealer],
})
export class IdempotencyModule {}
