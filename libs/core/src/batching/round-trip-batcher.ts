export interface RoundTripBatcherOptions {
  /** Most items in one batch. */
  maxBatch: number;
  /** Batches under way at once; calls made meanwhile wait for one to end and go together. */
  maxInFlight: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns single calls into batch calls, each one round trip: calls made in the same turn of the
 * event loop, or while the batches allowed are under way, go out together. A lone call on an idle
 * batcher leaves at the end of the current turn, so light load pays no wait worth measuring, and
 * heavy load pays one round trip for many calls instead of one each.
 *
 * `run` answers each item at its index. When a batch of several fails, each of its items is run
 * again on its own, so one bad item (a row that a constraint refuses) fails only its own call: `run`
 * must therefore be safe to repeat for an item whose batch may have taken effect before its answer
 * was lost.
 */
export class RoundTripBatcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;
  private flushQueued = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: RoundTripBatcherOptions,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.queueFlush();
    });
  }

  private queueFlush(): void {
    if (this.flushQueued || this.inFlight >= this.options.maxInFlight || this.waiting.length === 0) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.settle(batch).finally(() => {
        this.inFlight -= 1;
        this.queueFlush();
      });
    }
  }

  private async settle(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((waiting) => waiting.item));
      if (outputs.length !== batch.length) throw new Error(`A batch of ${batch.length} was answered with ${outputs.length} results.`);
      batch.forEach((waiting, index) => waiting.resolve(outputs[index]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      await Promise.all(batch.map((waiting) => this.settle([waiting])));
    }
  }
}
