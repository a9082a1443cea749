import { Module } from '@nestjs/common';
import { NoticesRepository } from './notices.repository.js';

@Module({ providers: [NoticesRepository], exports: [NoticesRepository] })
export class NoticesModule {}
