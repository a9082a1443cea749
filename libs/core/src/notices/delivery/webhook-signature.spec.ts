import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../endpoints/webhook-secret.js';
import { activeSecrets, signNotice, webhookSecretKey } from './webhook-signature.js';

const id = '01944c2e-5c01-7e2a-b3c4-d5e6f7a8b9c0';
const body = JSON.stringify({
  id,
  type: 'client.created',
  createdAt: '2030-01-07T09:00:00.000Z',
  business: 'salon',
  data: { id, occurredAt: '2030-01-07T09:00:00.000Z' },
});

function headers(signature: string, timestamp: number): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('signNotice', () => {
  it('matches a known Standard Webhooks vector', () => {
    // The secret and expected value of the standard-webhooks reference test suite.
    const signature = signNotice({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs id.timestamp.body with the base64-decoded key, not the secret text', () => {
    const secret = generateWebhookSecret();
    const timestamp = 1_893_920_400;
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64');
    expect(signNotice({ id, timestamp, body, secrets: [secret] })).toBe(`v1,${expected}`);
    expect(webhookSecretKey(secret)).toHaveLength(32);
  });

  it('is verified by the standardwebhooks library, and an altered body or timestamp is not', () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signNotice({ id, timestamp, body, secrets: [secret] });
    const receiver = new Webhook(secret);
    expect(receiver.verify(body, headers(signature, timestamp))).toEqual(JSON.parse(body));
    expect(() => receiver.verify(body.replace('salon', 'other'), headers(signature, timestamp))).toThrow();
    expect(() => receiver.verify(body, headers(signature, timestamp - 1))).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers(signature, timestamp))).toThrow();
  });

  it('sends one signature per secret during a rotation, each verifiable on its own', () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signNotice({ id, timestamp, body, secrets: [current, previous] });
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+={0,2} v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(() => new Webhook(current).verify(body, headers(signature, timestamp))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers(signature, timestamp))).not.toThrow();
  });
});

describe('activeSecrets', () => {
  const now = new Date('2030-01-07T09:00:00Z');

  it('is the current secret alone, or both while the previous one has not expired', () => {
    expect(activeSecrets({ secret: 'a', previousSecret: null, previousSecretExpiresAt: null }, now)).toEqual(['a']);
    expect(activeSecrets({ secret: 'a', previousSecret: 'b', previousSecretExpiresAt: new Date('2030-01-08T08:59:59Z') }, now)).toEqual([
      'a',
      'b',
    ]);
    expect(activeSecrets({ secret: 'a', previousSecret: 'b', previousSecretExpiresAt: now }, now)).toEqual(['a']);
  });
});
