import { Module } from '@nestjs/common';
import { PaginationModule } from '../pagination/pagination.module.js';
import { StaffReadsRepository } from './staff-reads.repository.js';
import { StaffReadsService } from './staff-reads.service.js';

/** GET /staff and GET /staff/{id}. */
@Module({
  imports: [PaginationModule],
  providers: [StaffReadsRepository, StaffReadsService],
  exports: [StaffReadsService],
})
export class StaffReadsModule {}
