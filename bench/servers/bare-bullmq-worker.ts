// The floor of S6's engine: a bare BullMQ worker on the same Redis, with the worker's delivery
// concurrency, whose processor only signs and POSTs the notice its job carries, over undici's
// keep-alive pool, as the undici loop does. No database, no endpoint slots, no attempt log: what
// the worker pays beyond this is ours, what this pays beyond the undici loop is BullMQ's.
// bare-bullmq-recording-worker.ts is the same with the attempt recorded.
import { runBareWorker } from './bare-bullmq-runner.js';
import { BARE_QUEUE, type BareJobData } from './bare-bullmq-queue.js';
import { postSigned, refuseUndelivered } from './signed-post.js';

runBareWorker<BareJobData>(BARE_QUEUE, async (data) => {
  const { response } = await postSigned(data, 'bench-bare-bullmq-worker');
  await response.body.dump();
  refuseUndelivered(response.statusCode);
});
