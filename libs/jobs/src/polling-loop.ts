import { Wakeup } from './wakeup.js';

export interface PollingLoopOptions {
  /** Names the loop in its error lines: "<what> failed: <error>". */
  what: string;
  /** The longest wait between two steps. */
  everyMs: number;
  /** One look; resolves to true when there is more to do at once (a full batch), so no wait. */
  step: () => Promise<boolean>;
  logger: { error(message: string): void };
}

/**
 * Runs a step, waits at most `everyMs` (less when woken), and again, until stopped; a step that
 * fails is logged and the loop goes on. The outbox relays, the delivery sweep and the in-memory
 * repeating jobs are such loops: what they look at is in the database, so a missed wake-up or a
 * failed look only delays the work by one period.
 */
export class PollingLoop {
  private readonly wakeup = new Wakeup();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: PollingLoopOptions) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Ends the current wait at once (a NOTIFY said there is work); kept if a step is under way. */
  wake(): void {
    this.wakeup.fire();
  }

  /** Starts no new step and resolves once the step under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.fire();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        if (await this.options.step()) continue;
      } catch (error) {
        this.options.logger.error(`${this.options.what} failed: ${(error as Error).message}`);
      }
      await this.wakeup.wait(this.options.everyMs);
    }
  }
}
