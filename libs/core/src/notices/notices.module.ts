import { Module } from '@nestjs/common';
import { NoticeCommitSubscriber } from './notice-commit.subscriber.js';
import { NoticesRepository } from './notices.repository.js';
import { RelayWakeup } from './relay-wakeup.js';

@Module({ providers: [NoticesRepository, RelayWakeup, NoticeCommitSubscriber], exports: [NoticesRepository] })
export class NoticesModule {}
