// What S6's bare BullMQ workers share: a BullMQ worker on the run's Redis with the worker's
// delivery concurrency (BARE_PREFIX, CONCURRENCY), driven over IPC by bench/scenarios/s6-notices.ts:
// the jobs are added before the timed part, 'go' starts (or resumes) the worker, 'pause' waits for
// the active jobs and answers 'paused <when the round's first job started>' (ms since the epoch,
// as the receiver notes arrivals).
import { Worker } from 'bullmq';

/** Runs `deliver` for every job of `queue` until SIGTERM, then closes the worker and `close`s what else the processor holds. */
export function runBareWorker<T>(
  queue: string,
  deliver: (data: T) => Promise<void>,
  close: () => Promise<void> = () => Promise.resolve(),
): void {
  /** When the round's first job started: the start of the timed part. */
  let firstJobAt: number | null = null;
  const worker = new Worker<T>(
    queue,
    async (job) => {
      firstJobAt ??= performance.timeOrigin + performance.now();
      await deliver(job.data);
    },
    {
      connection: { url: process.env.REDIS_URL! },
      prefix: process.env.BARE_PREFIX!,
      concurrency: Number(process.env.CONCURRENCY),
      autorun: false,
    },
  );
  worker.on('error', (error) => console.error(`${queue}: ${error.message}`));
  // A failed job is not retried (BullMQ's default of one attempt): said here, so that a round short of its rows shows why.
  worker.on('failed', (job, error) => console.error(`${queue}: job ${job?.id} failed: ${error.message}`));

  process.on('message', (message) => {
    if (message === 'go') {
      firstJobAt = null;
      // Runs the worker the first time, and takes it out of its pause after.
      void worker.resume();
    } else if (message === 'pause') {
      void worker.pause().then(() => process.send!(`paused ${firstJobAt}`));
    }
  });
  process.on('SIGTERM', () => {
    void worker
      .close()
      .then(close)
      .then(() => process.exit(0));
  });
  process.send!('ready');
}
