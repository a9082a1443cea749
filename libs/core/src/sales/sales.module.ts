import { Module } from '@nestjs/common';
import { SalesRepository } from './sales.repository.js';

@Module({
  providers: [SalesRepository],
  exports: [SalesRepository],
})
export class SalesModule {}
