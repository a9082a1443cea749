import { Module } from '@nestjs/common';
import { BusinessesRepository } from './businesses.repository.js';
import { BusinessesService } from './businesses.service.js';

@Module({
  providers: [BusinessesRepository, BusinessesService],
  exports: [BusinessesService, BusinessesRepository],
})
export class BusinessesModule {}
