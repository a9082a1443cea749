import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';
import { NOTICE_CHANNEL } from './notice-channel.js';

// Its own tiny transaction, whose commit need not wait for the WAL flush: it changes no data.
const WAKE_RELAY = defineStatement<[channel: string]>({
  name: 'wake_notice_relay',
  text: "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, '')",
});

/** The NOTIFY that wakes the notice relay (see RelayWakeup). */
@Injectable()
export class RelayWakeupRepository {
  constructor(private readonly database: Database) {}

  async wakeRelay(): Promise<void> {
    await this.database.execute(WAKE_RELAY, [NOTICE_CHANNEL]);
  }

  /** False once the process has closed its connections. */
  isOpen(): boolean {
    return this.database.isOpen();
  }
}
