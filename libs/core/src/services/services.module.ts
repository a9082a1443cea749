import { Module } from '@nestjs/common';
import { ServicesRepository } from './services.repository.js';
import { ServicesService } from './services.service.js';

@Module({
  providers: [ServicesRepository, ServicesService],
  exports: [ServicesService, ServicesRepository],
})
export class ServicesModule {}
