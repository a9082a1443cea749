// The floor of S6's engine: a bare BullMQ worker on the same Redis, with the worker's delivery
// concurrency, whose processor only signs and POSTs the notice its job carries, over undici's
// keep-alive pool, as the undici loop does. No database, no endpoint slots, no attempt log: what
// the worker pays beyond this is ours, what this pays beyond the undici loop is BullMQ's.
//
// Driven over IPC by bench/scenarios/s6-notices.ts: the jobs are added before the timed part,
// 'go' starts (or resumes) the worker, 'pause' waits for the active jobs and answers
// 'paused <when the round's first job started>' (ms since the epoch, as the receiver notes arrivals).
import { Worker, type Job } from 'bullmq';
import { request } from 'undici';
import { signNotice } from '#core/notices/delivery/webhook-signature.js';
import { BARE_QUEUE, type BareJobData } from './bare-bullmq-queue.js';

/** When the round's first job started: the start of the timed part. */
let firstJobAt: number | null = null;

async function deliver(job: Job<BareJobData>): Promise<void> {
  firstJobAt ??= performance.timeOrigin + performance.now();
  const { id, url, body, secrets } = job.data;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = signNotice({ id, timestamp, body, secrets });
  const response = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'bench-bare-bullmq-worker',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'x-service-signature': signature,
    },
    body,
  });
  await response.body.dump();
  if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`HTTP ${response.statusCode}`);
}

const worker = new Worker<BareJobData>(BARE_QUEUE, deliver, {
  connection: { url: process.env.REDIS_URL! },
  prefix: process.env.BARE_PREFIX!,
  concurrency: Number(process.env.CONCURRENCY),
  autorun: false,
});
worker.on('error', (error) => console.error(`bare worker: ${error.message}`));

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
  void worker.close().then(() => process.exit(0));
});
process.send!('ready');
