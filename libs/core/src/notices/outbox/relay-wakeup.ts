import { Injectable, Logger } from '@nestjs/common';
import { RelayWakeupRepository } from './relay-wakeup.repository.js';

/**
 * Wakes the relay (NOTIFY on the outbox channel) after notices were committed, outside their
 * transactions. A NOTIFY inside a write transaction makes its commit take PostgreSQL's global
 * notify lock and hold it through the WAL flush: every write that records a notice then commits
 * one after the other, which capped bookings at a few hundred a second. Here a NOTIFY is its own
 * tiny transaction whose commit does not wait for the flush (it changes no data; a lost wake-up
 * only delays the relay until its next poll), and requests made while one is on its way are
 * answered together by the next: every commit is followed by a NOTIFY sent after it.
 */
@Injectable()
export class RelayWakeup {
  private readonly logger = new Logger(RelayWakeup.name);
  private sending = false;
  private again = false;

  constructor(private readonly channel: RelayWakeupRepository) {}

  /** Call after the transaction that recorded notices has committed. Never throws. */
  request(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    void this.send();
  }

  private async send(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.channel.wakeRelay();
      } catch (error) {
        // The relay polls as well: a failed wake-up costs latency, never a notice.
        this.logger.warn(`Could not wake the notice relay: ${(error as Error).message}`);
      }
    } while (this.again && this.channel.isOpen());
    this.sending = false;
  }
}
