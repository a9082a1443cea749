/** A job to put on a queue. */
export interface JobToAdd<T> {
  /** Adding an id that is waiting, delayed or running is a no-op; a finished job's id is free again. */
  readonly id: string;
  readonly name: string;
  readonly data: T;
  /** How long the job waits before it may run; 0 or absent: at once. */
  readonly delayMs?: number;
}

/** One run of a job, as its processor sees it. */
export interface QueuedJob<T> {
  readonly id: string;
  readonly name: string;
  readonly data: T;
  /** Runs of this job that ended before this one (0 on its first run). */
  readonly attemptsMade: number;
}

/**
 * What happens to a job after a run, decided by its processor and carried out by the driver:
 * - `done`: finished; `result` is the job's return value where the driver keeps one.
 * - `later`: the same job runs again at `at` (a retry, or a job that ran before it was due);
 *   `warning`, when given, is logged.
 * - `failed`: finished for good, for `reason`: kept with the failed job where the driver keeps
 *   failed jobs (BullMQ), logged where it does not (in memory).
 * A processor that throws has met an unexpected error (the database away): see each driver.
 */
export type NextStep =
  | { readonly kind: 'done'; readonly result?: unknown }
  | { readonly kind: 'later'; readonly at: Date; readonly warning?: string }
  | { readonly kind: 'failed'; readonly reason: string };

export type JobProcessor<T> = (job: QueuedJob<T>) => Promise<NextStep>;

export interface ProcessOptions {
  /** Jobs of this queue one process runs at once. */
  readonly concurrency: number;
}

/** Jobs of one queue by state, under BullMQ's names (waiting, active, delayed, ...). */
export type JobCounts = Record<string, number>;

/**
 * One job queue, whichever driver runs it (BullMQ on Redis, or this process's memory). Whoever
 * adds jobs and whoever processes them see only this.
 */
export interface JobQueue<T> {
  readonly name: string;
  /** Resolves once the jobs are queued; rejects when the driver could not take them. */
  add(jobs: readonly JobToAdd<T>[]): Promise<void>;
  /** Starts running this queue's jobs in this process with `processor`; once per queue. */
  process(processor: JobProcessor<T>, options: ProcessOptions): void;
  /** Adds the job `name` (with empty data) now and every `everyMs`; one schedule per name however many processes ask. */
  repeat(name: string, everyMs: number): Promise<void>;
  counts(): Promise<JobCounts>;
  /** Takes no new job, lets the running ones finish (and record their outcome), then lets go of the queue. */
  close(): Promise<void>;
}
