// S6's fairer floor (issue 37): the bare BullMQ worker of bare-bullmq-worker.ts, which then
// records the attempt, as D9 requires of every attempt (docs/design-record.md#d9): one row per
// delivery, with the columns the worker fills on a success, in a table made like delivery_attempts
// (FLOOR_ATTEMPTS_TABLE, made by the scenario). One parameterised INSERT after the POST succeeded,
// autocommitted, over a pg pool of the worker's size (DATABASE_POOL_SIZE, given as POOL_SIZE). The
// row's values come from the job and the exchange; nothing is read from the database.
import pg from 'pg';
import { bodyDigest } from '#core/notices/delivery/notice-as-sent.js';
import { responseExcerpt } from '#core/notices/delivery/response-excerpt.js';
import { newId } from '#database/new-id.js';
import { runBareWorker } from './bare-bullmq-runner.js';
import { FLOOR_ATTEMPTS_TABLE, RECORDING_QUEUE, type RecordingJobData } from './bare-bullmq-queue.js';
import { postSigned, refuseUndelivered } from './signed-post.js';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE),
  // Connections are kept between rounds, as the worker's pool keeps them (libs/database/src/data-source-options.ts).
  idleTimeoutMillis: 0,
});
pool.on('error', (error) => console.error(`${RECORDING_QUEUE}: idle connection: ${error.message}`));

/** Named, so prepared once per connection, as the worker's statements are. */
const INSERT_ATTEMPT = {
  name: 'insert_bench_floor_attempt',
  text: `INSERT INTO ${FLOOR_ATTEMPTS_TABLE} (id, delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error,
                                  request_url, request_headers, api_version, request_body_sha256, response_excerpt, failure)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
};

runBareWorker<RecordingJobData>(
  RECORDING_QUEUE,
  async (data) => {
    const { attemptedAt, sentAtMs, requestHeaders, response } = await postSigned(data, 'bench-bare-bullmq-recording-worker');
    // The worker keeps the answer's first 1 KB; the receiver's is two bytes, read whole.
    const answer = responseExcerpt(new Uint8Array(await response.body.arrayBuffer()));
    const durationMs = Math.round(performance.now() - sentAtMs);
    refuseUndelivered(response.statusCode);
    await pool.query({
      ...INSERT_ATTEMPT,
      values: [
        newId(),
        data.deliveryId,
        data.endpointId,
        data.attempt,
        attemptedAt,
        response.statusCode,
        durationMs,
        null,
        data.url,
        JSON.stringify(requestHeaders),
        data.apiVersion,
        bodyDigest(data.body),
        answer,
        null,
      ],
    });
  },
  () => pool.end(),
);
