import { AsyncResource } from 'node:async_hooks';

/** One job of an in-process queue, as its handler sees it. */
export interface InProcessJob<T> {
  readonly id: string;
  readonly data: T;
  /** Runs of this job that have finished, so 0 on its first run. */
  readonly attemptsMade: number;
}

/**
 * Runs one job once. Resolves to when the same job should run again (a retry, or a job that ran
 * before it was due), or to null when it is done. Handlers deal with their own failures; a
 * rejection is logged and ends the job.
 */
export type InProcessHandler<T> = (job: InProcessJob<T>) => Promise<Date | null>;

// A type rather than an interface, so that it is a Record<string, number> (QueueJobCounts).
export type InProcessQueueCounts = {
  /** Due and waiting for a free slot. */
  waiting: number;
  active: number;
  /** Waiting for their time (a retry). */
  delayed: number;
};

interface Entry<T> {
  data: T;
  attemptsMade: number;
  state: keyof InProcessQueueCounts;
  timer: NodeJS.Timeout | null;
}

/** setTimeout's longest delay; a later date is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What BullMQ does for the worker, for one process without Redis: jobs under ids (adding an id
 * that is waiting, delayed or running is a no-op, as adding a BullMQ job id twice is), at most
 * `concurrency` at once, and a job run again at the time its handler names, on a timer. Nothing
 * outlives the process: what must survive a restart has to be in the database (the notice
 * deliveries' schedule is, and the sweep hands them over again).
 */
export class InProcessQueue<T> {
  private readonly jobs = new Map<string, Entry<T>>();
  private readonly due: string[] = [];
  private readonly running = new Set<Promise<void>>();
  /**
   * The async context the queue was made in. Jobs run in it, never in the context of whoever
   * added them: the e-mail relay adds inside its transaction, and a job that inherited it would
   * run its queries on that transaction's connection (the ambient transaction of
   * transaction-context.ts), even after the commit. A job taken from Redis starts afresh anyway.
   */
  private readonly scope = new AsyncResource('InProcessQueue');
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly concurrency: number,
    private readonly handler: InProcessHandler<T>,
    private readonly logger: { error(message: string): void },
  ) {}

  /** Adds a job to run now; false when its id is already here (or the queue is closed). */
  add(id: string, data: T): boolean {
    if (this.closed || this.jobs.has(id)) return false;
    this.jobs.set(id, { data, attemptsMade: 0, state: 'waiting', timer: null });
    this.due.push(id);
    this.scope.runInAsyncScope(() => this.pump());
    return true;
  }

  counts(): InProcessQueueCounts {
    const counts: InProcessQueueCounts = { waiting: 0, active: 0, delayed: 0 };
    for (const entry of this.jobs.values()) counts[entry.state] += 1;
    return counts;
  }

  /** Runs nothing new, forgets the jobs that wait, and resolves once the running ones finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.jobs.values()) if (entry.timer) clearTimeout(entry.timer);
    this.due.length = 0;
    await Promise.all(this.running);
    this.jobs.clear();
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency) {
      const id = this.due.shift();
      if (id === undefined) return;
      const entry = this.jobs.get(id);
      if (!entry) continue;
      entry.state = 'active';
      const run: Promise<void> = this.runOnce(id, entry).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async runOnce(id: string, entry: Entry<T>): Promise<void> {
    let next: Date | null = null;
    try {
      next = await this.handler({ id, data: entry.data, attemptsMade: entry.attemptsMade });
    } catch (error) {
      this.logger.error(`${this.name} job ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    entry.attemptsMade += 1;
    if (next === null || this.closed) {
      this.jobs.delete(id);
      return;
    }
    this.runAt(id, entry, next.getTime());
  }

  private runAt(id: string, entry: Entry<T>, at: number): void {
    entry.state = 'delayed';
    const wait = at - Date.now();
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (wait > MAX_TIMER_MS) {
        this.runAt(id, entry, at);
        return;
      }
      entry.state = 'waiting';
      this.due.push(id);
      this.pump();
    }, Math.min(Math.max(wait, 0), MAX_TIMER_MS));
  }
}
