import { Webhook } from 'standardwebhooks';
import { NoticeVerificationError, verifyNotice, type SchedulingNotice } from './notices.js';

const OLD = `whsec_${Buffer.from('old-secret-old-secret-old-secret').toString('base64')}`;
const NEW = `whsec_${Buffer.from('new-secret-new-secret-new-secret').toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'client.created', createdAt: '2030-01-01T00:00:00.000Z', data: { id: 'c1' } });

function signed(secret: string): Record<string, string> {
  const timestamp = new Date();
  return {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', timestamp, body),
  };
}

describe('verifyNotice', () => {
  it('returns the body of a notice signed with the secret, from a string, bytes or Headers', () => {
    expect(verifyNotice(body, signed(NEW), NEW)).toEqual(JSON.parse(body));
    expect(verifyNotice(new TextEncoder().encode(body), signed(NEW), NEW)).toEqual(JSON.parse(body));
    expect(verifyNotice(body, new Headers(signed(NEW)), NEW)).toEqual(JSON.parse(body));
  });

  it('accepts either secret during a rotation, in any order', () => {
    expect(verifyNotice(body, signed(OLD), [NEW, OLD])).toEqual(JSON.parse(body));
    expect(verifyNotice(body, signed(NEW), [NEW, OLD])).toEqual(JSON.parse(body));
  });

  it('refuses a body signed with neither, a changed body and missing headers', () => {
    const other = `whsec_${Buffer.from('other-secret-other-secret-other!').toString('base64')}`;
    expect(() => verifyNotice(body, signed(other), [NEW, OLD])).toThrow(/signature/i);
    expect(() => verifyNotice(`${body} `, signed(NEW), NEW)).toThrow(/signature/i);
    expect(() => verifyNotice(body, {}, NEW)).toThrow(/headers/i);
    expect(() => verifyNotice(body, {}, NEW)).toThrow(NoticeVerificationError);
    expect(() => verifyNotice(body, signed(NEW), [])).toThrow(/secret/);
  });

  it("types a notice of an endpoint pinned before 1.4.0 (no mode) as well as a 1.4.0 one's", () => {
    const earlier: SchedulingNotice = {
      id: '01944c41-4d00-7311-b422-c54d6e7f8091',
      type: 'client.created',
      createdAt: '2030-01-07T09:36:10.330Z',
      business: 'salon-lisboa',
      data: { id: '01944c41-4c3b-72a1-9f8e-7d6c5b4a3920', occurredAt: '2030-01-07T09:36:10.318Z' },
    };
    const current: SchedulingNotice = { ...earlier, mode: 'test' };
    expect([earlier.mode, current.mode]).toEqual([undefined, 'test']);
  });
});
