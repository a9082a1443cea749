import type { JobsOptions, QueueOptions, WorkerOptions } from 'bullmq';
import { EMAILS_QUEUE, MAINTENANCE_QUEUE, NOTICES_QUEUE, type QueueName } from '../../queues.js';

/** How BullMQ holds each queue's jobs and runs them; what has no meaning without Redis lives here. */
export interface BullmqQueueSettings {
  /** Options of every job added (the job id and delay come with each job). */
  jobOptions: JobsOptions;
  /** The lock and stalled-job checks of the queue's workers. */
  workerOptions: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;
  /** The queue's own options beyond its connection: how long BullMQ's events stream may grow. */
  queueOptions?: Pick<QueueOptions, 'streams'>;
}

/** Finished jobs kept for the dashboard: the last thousand done, the last five thousand failed. */
const KEEP_FINISHED: JobsOptions = { removeOnComplete: 1000, removeOnFail: 5000 };

/** Events kept in the notices queue's stream (see below). */
export const NOTICE_EVENTS_KEPT = 100;

export const BULLMQ_QUEUE_SETTINGS: Record<QueueName, BullmqQueueSettings> = {
  /**
   * A finished notice job is removed at once: the database keeps the record (deliveries and
   * attempts), and a removed id is free for the sweep to add again when a replay puts the
   * delivery back to PENDING. The job's own attempts only cover an unexpected error (the database
   * away); the delivery schedule is the database's, rescheduling the job by delay. A short lock,
   * renewed while the attempt runs (at most 15 s), lets another worker take the job over soon
   * after this process dies mid-attempt: the notice is sent again, with the same id.
   */
  [NOTICES_QUEUE]: {
    jobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: true, removeOnFail: true },
    workerOptions: { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 },
    // BullMQ writes three or four events per job (added, active, completed…) to a stream nothing
    // here reads for this queue (no QueueEvents; the dashboard and the queue_jobs metric read the
    // job sets), and keeps 10,000 by default: a short tail is enough to look at by hand.
    queueOptions: { streams: { events: { maxLen: NOTICE_EVENTS_KEPT } } },
  },
  /** A failed send is retried by the e-mail processor's own schedule (email-retry.ts), by delay. */
  [EMAILS_QUEUE]: { jobOptions: KEEP_FINISHED, workerOptions: {} },
  /** A failed housekeeping run is recorded, and the next run of its schedule tries again. */
  [MAINTENANCE_QUEUE]: { jobOptions: KEEP_FINISHED, workerOptions: {} },
};
