// Signing and POSTing one notice as S6's bare BullMQ workers do: the worker's headers, over
// undici's keep-alive pool, and nothing else (no address checks, no time limits).
import { request, type Dispatcher } from 'undici';
import { signNotice } from '#core/notices/delivery/webhook-signature.js';
import type { BareJobData } from './bare-bullmq-queue.js';

export interface SignedPost {
  /** When the attempt began: its webhook-timestamp, and an attempt row's attempted_at. */
  attemptedAt: Date;
  /** performance.now() when the request left (after signing), as the worker's duration counts. */
  sentAtMs: number;
  /** The headers as sent, in order: what an attempt row keeps (docs/design-record.md#d29). */
  requestHeaders: [string, string][];
  /** The answer, its body unread: each worker reads as much of it as it keeps. */
  response: Dispatcher.ResponseData;
}

export async function postSigned(data: BareJobData, userAgent: string): Promise<SignedPost> {
  const attemptedAt = new Date();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const signature = signNotice({ id: data.id, timestamp, body: data.body, secrets: data.secrets });
  const requestHeaders: [string, string][] = [
    ['content-type', 'application/json'],
    ['user-agent', userAgent],
    ['webhook-id', data.id],
    ['webhook-timestamp', String(timestamp)],
    ['webhook-signature', signature],
    ['x-service-signature', signature],
  ];
  const sentAtMs = performance.now();
  const response = await request(data.url, { method: 'POST', headers: requestHeaders.flat(), body: data.body });
  return { attemptedAt, sentAtMs, requestHeaders, response };
}

/** Fails the job when the receiver did not answer 2xx (its body read first, so the connection is kept). */
export function refuseUndelivered(statusCode: number): void {
  if (statusCode < 200 || statusCode > 299) throw new Error(`HTTP ${statusCode}`);
}
