import type { DeliveryOutcome } from '#core/notices/delivery/notice-delivery.service.js';
import type { NextStep } from '../../job-queue.js';
import type { NoticeDeliveryJobData } from '../../queues.js';

/**
 * What happens to a delivery's job after one attempt, whichever driver runs it. The service has
 * recorded the attempt (and settled the delivery) before this is asked: a failure with attempts
 * left runs the same job again when the next attempt is due; the last failure (the schedule used
 * up, or the endpoint disabled by a 410 or five days of failures) fails the job, so nothing fails
 * silently; a job that ran before its delivery was due waits for it.
 */
export function noticeDeliveryStep(outcome: DeliveryOutcome, { noticeId, endpointId }: NoticeDeliveryJobData): NextStep {
  switch (outcome.kind) {
    case 'delivered':
    case 'skipped':
      return { kind: 'done', result: outcome };
    case 'wait':
      return { kind: 'later', at: outcome.until };
    case 'retry':
      return {
        kind: 'later',
        at: outcome.retryAt,
        warning: `Notice ${noticeId} to endpoint ${endpointId} failed (${outcome.error}); next attempt at ${outcome.retryAt.toISOString()}`,
      };
    case 'failed':
      return { kind: 'failed', reason: `Notice ${noticeId} to endpoint ${endpointId} failed for good: ${outcome.error}` };
  }
}
