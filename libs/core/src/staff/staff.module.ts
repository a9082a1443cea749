import { Module } from '@nestjs/common';
import { StaffRepository } from './staff.repository.js';

@Module({
  providers: [StaffRepository],
  exports: [StaffRepository],
})
export class StaffModule {}
