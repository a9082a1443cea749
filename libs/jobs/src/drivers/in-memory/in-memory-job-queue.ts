import { AsyncResource } from 'node:async_hooks';
import type { JobCounts, JobProcessor, JobQueue, JobToAdd, NextStep, ProcessOptions, QueuedJob } from '../../job-queue.js';
import { PollingLoop } from '../../polling-loop.js';

type JobState = 'waiting' | 'active' | 'delayed';

interface Entry<T> {
  name: string;
  data: T;
  attemptsMade: number;
  state: JobState;
  timer: NodeJS.Timeout | null;
}

/** setTimeout's longest delay; a later date is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface InMemoryLogger {
  warn(message: string): void;
  error(message: string): void;
}

/**
 * What BullMQ does for the worker, for one process without Redis: jobs under ids (adding an id
 * that is waiting, delayed or running is a no-op, as adding a BullMQ job id twice is), at most
 * `concurrency` at once, and a job run again at the time its processor names, on a timer. Nothing
 * outlives the process: what must survive a restart has to be in the database (the notice
 * deliveries' schedule is, and the sweep hands them over again).
 *
 * A processor that throws is logged and its job ends: no retry here, since the work it stands for
 * is still due in the database (a PENDING delivery, which the sweep hands over again).
 */
export class InMemoryJobQueue<T> implements JobQueue<T> {
  private readonly jobs = new Map<string, Entry<T>>();
  private readonly due: string[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly schedules: PollingLoop[] = [];
  /**
   * The async context the queue was made in. Jobs run in it, never in the context of whoever
   * added them: the e-mail relay adds inside its transaction, and a job that inherited it would
   * run its queries on that transaction's connection (the ambient transaction of
   * transaction-context.ts), even after the commit. A job taken from Redis starts afresh anyway.
   */
  private readonly scope = new AsyncResource('InMemoryJobQueue');
  private processor: JobProcessor<T> | null = null;
  private concurrency = 0;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly logger: InMemoryLogger,
  ) {}

  add(jobs: readonly JobToAdd<T>[]): Promise<void> {
    for (const job of jobs) this.addOne(job);
    return Promise.resolve();
  }

  process(processor: JobProcessor<T>, options: ProcessOptions): void {
    if (this.processor) throw new Error(`Queue ${this.name} already has a processor`);
    this.processor = processor;
    this.concurrency = options.concurrency;
    this.scope.runInAsyncScope(() => this.pump());
  }

  /** At once, then every `everyMs`, on this process's timers (one process: one schedule). */
  repeat(name: string, everyMs: number): Promise<void> {
    const schedule = new PollingLoop({
      what: `${this.name} schedule of ${name}`,
      everyMs,
      step: () => {
        // Repeating jobs carry no data (MaintenanceJobData); the job's name says what to do.
        this.addOne({ id: name, name, data: {} as T });
        return Promise.resolve(false);
      },
      logger: this.logger,
    });
    this.schedules.push(schedule);
    schedule.start();
    return Promise.resolve();
  }

  counts(): Promise<JobCounts> {
    const counts: Record<JobState, number> = { waiting: 0, active: 0, delayed: 0 };
    for (const entry of this.jobs.values()) counts[entry.state] += 1;
    return Promise.resolve(counts);
  }

  /** Runs nothing new, forgets the jobs that wait, and resolves once the running ones finish. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.schedules.map((schedule) => schedule.stop()));
    for (const entry of this.jobs.values()) if (entry.timer) clearTimeout(entry.timer);
    this.due.length = 0;
    await Promise.all(this.running);
    this.jobs.clear();
  }

  /** False when its id is already here (or the queue is closed). */
  private addOne({ id, name, data, delayMs = 0 }: JobToAdd<T>): boolean {
    if (this.closed || this.jobs.has(id)) return false;
    const entry: Entry<T> = { name, data, attemptsMade: 0, state: 'waiting', timer: null };
    this.jobs.set(id, entry);
    this.scope.runInAsyncScope(() => {
      if (delayMs > 0) {
        this.runAt(id, entry, Date.now() + delayMs);
      } else {
        this.due.push(id);
        this.pump();
      }
    });
    return true;
  }

  private pump(): void {
    const processor = this.processor;
    if (!processor) return;
    while (!this.closed && this.running.size < this.concurrency) {
      const id = this.due.shift();
      if (id === undefined) return;
      const entry = this.jobs.get(id);
      if (!entry) continue;
      entry.state = 'active';
      const run: Promise<void> = this.runOnce(processor, id, entry).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async runOnce(processor: JobProcessor<T>, id: string, entry: Entry<T>): Promise<void> {
    const job: QueuedJob<T> = { id, name: entry.name, data: entry.data, attemptsMade: entry.attemptsMade };
    let step: NextStep;
    try {
      step = await processor(job);
    } catch (error) {
      this.logger.error(`${this.name} job ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
      step = { kind: 'done' };
    }
    entry.attemptsMade += 1;
    switch (step.kind) {
      case 'done':
        this.jobs.delete(id);
        return;
      case 'failed':
        this.logger.error(step.reason);
        this.jobs.delete(id);
        return;
      case 'later':
        if (step.warning) this.logger.warn(step.warning);
        if (this.closed) {
          this.jobs.delete(id);
          return;
        }
        this.runAt(id, entry, step.at.getTime());
        return;
    }
  }

  private runAt(id: string, entry: Entry<T>, at: number): void {
    entry.state = 'delayed';
    const wait = at - Date.now();
    entry.timer = setTimeout(
      () => {
        entry.timer = null;
        if (wait > MAX_TIMER_MS) {
          this.runAt(id, entry, at);
          return;
        }
        entry.state = 'waiting';
        this.due.push(id);
        this.pump();
      },
      Math.min(Math.max(wait, 0), MAX_TIMER_MS),
    );
  }
}
