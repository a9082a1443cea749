import { EMAIL_ATTEMPTS, emailRetryDelayMs } from './email-retry.js';
import type { NextStep } from '../../job-queue.js';
import type { SendOutcome } from './email-sender.js';

/** A send the server did not take, or that could not be tried (the database away). */
export type EmailSendResult = SendOutcome | 'not-sent';

/**
 * What happens to an e-mail's job after one send, whichever driver runs it: a send that did not
 * go through runs again on the e-mail schedule, EMAIL_ATTEMPTS times in all, then the job fails.
 * The error itself is on the outbound_emails row: the server's text may quote the recipient's
 * address, so it stays out of the reason, which is logged.
 */
export function emailSendStep(result: EmailSendResult, emailId: string, attemptsMade: number, now: number = Date.now()): NextStep {
  if (result !== 'not-sent') return { kind: 'done', result };
  const made = attemptsMade + 1;
  if (made < EMAIL_ATTEMPTS) return { kind: 'later', at: new Date(now + emailRetryDelayMs(made)) };
  return { kind: 'failed', reason: `E-mail ${emailId} was not sent after ${made} attempts; giving up` };
}
