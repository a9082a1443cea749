import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Database, type Listening } from '#database/database.js';
import { NOTICE_CHANNEL } from '#core/notices/outbox/notice-channel.js';

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_DELAY_MS = 1_000;

type Handler = (payload: string) => void;

/**
 * LISTENs on the outbox channel on a connection of its own (a pooled one would lose the LISTEN)
 * and passes each NOTIFY payload to the handlers. Only a shortcut: the relay and the sweep also
 * run on timers, so a lost connection delays nothing by more than their period. After every
 * (re)connection the handlers get an empty payload, for what may have been missed meanwhile.
 */
@Injectable()
export class NoticeListener implements OnModuleDestroy {
  private readonly logger = new Logger(NoticeListener.name);
  private readonly handlers: Handler[] = [];
  private listening: Listening | null = null;
  private retry: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;

  constructor(private readonly database: Database) {}

  onNotify(handler: Handler): void {
    this.handlers.push(handler);
    if (!this.started) {
      this.started = true;
      void this.connect();
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const listening = this.listening;
    this.listening = null;
    await listening?.close();
  }

  private emit(payload: string): void {
    for (const handler of this.handlers) handler(payload);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const onLost = (error?: Error) => {
      this.listening = null;
      if (this.stopped) return;
      this.logger.warn(`Notice channel connection lost${error ? `: ${error.message}` : ''}; polling until it is back`);
      this.retry = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
    };
    try {
      const listening = await this.database.listen(NOTICE_CHANNEL, 'scheduling-worker-listen', {
        onNotification: (payload) => this.emit(payload),
        onLost,
      });
      if (this.stopped) {
        await listening.close();
        return;
      }
      this.listening = listening;
      this.emit('');
    } catch (error) {
      onLost(error as Error);
    }
  }
}
