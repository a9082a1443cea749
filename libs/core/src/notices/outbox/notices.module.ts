import { Module } from '@nestjs/common';
import { NoticesRepository } from './notices.repository.js';
import { RelayWakeup } from './relay-wakeup.js';
import { RelayWakeupRepository } from './relay-wakeup.repository.js';

@Module({ providers: [NoticesRepository, RelayWakeup, RelayWakeupRepository], exports: [NoticesRepository] })
export class NoticesModule {}
