import type { Logger } from '@nestjs/common';
import { DelayedError, Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { JobCounts, JobProcessor, JobQueue, JobToAdd, ProcessOptions } from '../../job-queue.js';
import type { BullmqQueueSettings } from './bullmq-queue-settings.js';

/** The BullMQ job states worth a metric (finished jobs are removed, so `completed` stays near 0). */
const COUNTED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Longer than this, Redis is taken as away: what was to be queued stays due in the database. */
const ADD_TIMEOUT_MS = 5_000;

/**
 * One BullMQ queue, and its worker once `process` is called. A processor's `later` moves the same
 * job to the delayed set until it is due (BullMQ's manual rescheduling: moveToDelayed, then
 * DelayedError), and `failed` fails the job without BullMQ retries. A processor that throws is
 * retried as the queue's job options say (BULLMQ_QUEUE_SETTINGS), then failed.
 */
export class BullmqJobQueue<T> implements JobQueue<T> {
  /** The BullMQ queue itself, for the operators' dashboard. */
  readonly bullQueue: Queue<unknown, unknown, string>;
  private worker: Worker<unknown, unknown, string> | null = null;

  constructor(
    readonly name: string,
    private readonly connection: ConnectionOptions,
    private readonly prefix: string,
    private readonly settings: BullmqQueueSettings,
    private readonly logger: Logger,
  ) {
    this.bullQueue = new Queue<unknown, unknown, string>(name, {
      connection,
      prefix,
      defaultJobOptions: settings.jobOptions,
      ...settings.queueOptions,
    });
    // Without a listener an 'error' event is printed raw; the connection's owner logs why.
    this.bullQueue.on('error', () => undefined);
  }

  async add(jobs: readonly JobToAdd<T>[]): Promise<void> {
    if (jobs.length === 0) return;
    const bulk = jobs.map(({ id, name, data, delayMs }) => ({
      name,
      data,
      opts: { ...this.settings.jobOptions, jobId: id, delay: delayMs },
    }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not take the ${this.name} jobs within ${ADD_TIMEOUT_MS} ms`)), ADD_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.bullQueue.addBulk(bulk), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  process(processor: JobProcessor<T>, options: ProcessOptions): void {
    if (this.worker) throw new Error(`Queue ${this.name} already has a processor`);
    this.worker = new Worker<unknown, unknown, string>(this.name, (job, token) => this.run(processor, job, token), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency: options.concurrency,
      ...this.settings.workerOptions,
    });
    this.worker.on('error', (error) => this.logger.error(`Queue ${this.name}: ${error.message}`));
  }

  /** A job scheduler: upserting keeps one schedule however many processes start. */
  async repeat(name: string, everyMs: number): Promise<void> {
    await this.bullQueue.upsertJobScheduler(name, { every: everyMs }, { name });
  }

  counts(): Promise<JobCounts> {
    return this.bullQueue.getJobCounts(...COUNTED_STATES);
  }

  /** Worker.close() takes no new job and waits for the active ones; then the queue lets go of Redis. */
  async close(): Promise<void> {
    await this.worker?.close();
    await this.bullQueue.close();
  }

  private async run(processor: JobProcessor<T>, job: Job<unknown, unknown, string>, token?: string): Promise<unknown> {
    const step = await processor({ id: job.id ?? '', name: job.name, data: job.data as T, attemptsMade: job.attemptsMade });
    switch (step.kind) {
      case 'done':
        return step.result;
      case 'later':
        if (step.warning) this.logger.warn(step.warning);
        await job.moveToDelayed(step.at.getTime(), token);
        throw new DelayedError();
      case 'failed':
        // Kept with the failed job (the dashboard shows it), as BullMQ keeps every failure.
        throw new UnrecoverableError(step.reason);
    }
  }
}
