// Baseline of S6: a plain undici send loop. It signs and POSTs the same notice bodies, with the
// same headers and secrets, to the same receiver as the worker, with as many in flight as the
// worker's delivery concurrency, over undici's default keep-alive pool, and nothing else.
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { signNotice } from '#core/notices/delivery/webhook-signature.js';

export interface SenderInput {
  url: string;
  notices: { id: string; body: string; secrets: string[] }[];
  concurrency: number;
}

const input = JSON.parse(readFileSync(process.env.SENDER_INPUT!, 'utf8')) as SenderInput;
const startedAt = performance.timeOrigin + performance.now();
const cpuBefore = process.cpuUsage();
let next = 0;
let delivered = 0;

async function sendLoop(): Promise<void> {
  while (next < input.notices.length) {
    const notice = input.notices[next++];
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signNotice({ id: notice.id, timestamp, body: notice.body, secrets: notice.secrets });
    const response = await request(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bench-undici-sender',
        'webhook-id': notice.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
        'x-service-signature': signature,
      },
      body: notice.body,
    });
    await response.body.dump();
    if (response.statusCode >= 200 && response.statusCode < 300) delivered += 1;
  }
}

await Promise.all(Array.from({ length: input.concurrency }, sendLoop));
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ startedAt, delivered, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
