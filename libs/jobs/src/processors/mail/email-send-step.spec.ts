import { EMAIL_ATTEMPTS } from './email-retry.js';
import { emailSendStep } from './email-send-step.js';

const now = Date.parse('2035-07-10T09:30:00.000Z');

describe('emailSendStep', () => {
  it('ends the job of an e-mail sent, sent before, or gone with its business', () => {
    for (const result of ['sent', 'already-sent', 'missing'] as const) {
      expect(emailSendStep(result, 'm1', 0, now)).toEqual({ kind: 'done', result });
    }
  });

  it('runs a send that did not go through again on the e-mail schedule', () => {
    expect(emailSendStep('not-sent', 'm1', 0, now)).toEqual({ kind: 'later', at: new Date(now + 2_000) });
    expect(emailSendStep('not-sent', 'm1', 1, now)).toEqual({ kind: 'later', at: new Date(now + 15_000) });
    expect(emailSendStep('not-sent', 'm1', EMAIL_ATTEMPTS - 2, now)).toEqual({ kind: 'later', at: new Date(now + 6 * 3_600_000) });
  });

  it('gives up after EMAIL_ATTEMPTS attempts, without the server’s text', () => {
    expect(emailSendStep('not-sent', 'm1', EMAIL_ATTEMPTS - 1, now)).toEqual({
      kind: 'failed',
      reason: `E-mail m1 was not sent after ${EMAIL_ATTEMPTS} attempts; giving up`,
    });
  });
});
