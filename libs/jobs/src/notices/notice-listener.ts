import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { AppConfig } from '#config/app-config.js';
import { NOTICE_CHANNEL } from '#core/notices/notice-channel.js';

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
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;

  constructor(private readonly config: AppConfig) {}

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
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private emit(payload: string): void {
    for (const handler of this.handlers) handler(payload);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.config.DATABASE_URL, application_name: 'scheduling-worker-listen' });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      if (this.stopped) return;
      this.logger.warn(`Notice channel connection lost${error ? `: ${error.message}` : ''}; polling until it is back`);
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
    };
    client.on('notification', (message) => this.emit(message.payload ?? ''));
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTICE_CHANNEL}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      this.emit('');
    } catch (error) {
      onLost(error as Error);
    }
  }
}
