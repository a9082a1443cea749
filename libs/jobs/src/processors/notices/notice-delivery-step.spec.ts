import { noticeDeliveryStep } from './notice-delivery-step.js';

const job = { businessId: 'b1', noticeId: 'n1', endpointId: 'e1' };
const at = new Date('2035-07-10T09:30:00.000Z');

describe('noticeDeliveryStep', () => {
  it('ends the job of a delivered or skipped delivery, with the outcome as its result', () => {
    expect(noticeDeliveryStep({ kind: 'delivered', statusCode: 204 }, job)).toEqual({
      kind: 'done',
      result: { kind: 'delivered', statusCode: 204 },
    });
    expect(noticeDeliveryStep({ kind: 'skipped', reason: 'the delivery is FAILED' }, job)).toEqual({
      kind: 'done',
      result: { kind: 'skipped', reason: 'the delivery is FAILED' },
    });
  });

  it('runs the same job again at the retry time the service set, with a warning naming the notice and the endpoint', () => {
    expect(noticeDeliveryStep({ kind: 'retry', retryAt: at, error: 'HTTP 503' }, job)).toEqual({
      kind: 'later',
      at,
      warning: 'Notice n1 to endpoint e1 failed (HTTP 503); next attempt at 2035-07-10T09:30:00.000Z',
    });
  });

  it('makes a job that ran early wait for its delivery, silently', () => {
    expect(noticeDeliveryStep({ kind: 'wait', until: at }, job)).toEqual({ kind: 'later', at });
  });

  it('fails the job of the last failed attempt, an endpoint disabled by a 410 included', () => {
    expect(noticeDeliveryStep({ kind: 'failed', error: 'HTTP 410; the endpoint answered 410 Gone: endpoint disabled' }, job)).toEqual({
      kind: 'failed',
      reason: 'Notice n1 to endpoint e1 failed for good: HTTP 410; the endpoint answered 410 Gone: endpoint disabled',
    });
  });
});
