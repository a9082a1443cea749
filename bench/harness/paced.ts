import { preciseNow } from './receiver.js';

/**
 * Starts `send(i)` at `rate` a second for `seconds` (open loop: the schedule never waits for an
 * answer, so a slow answer delays no later send) and resolves once every send has settled.
 */
export async function paced(rate: number, seconds: number, send: (i: number) => Promise<void>): Promise<void> {
  const count = Math.max(1, Math.round(rate * seconds));
  const sends: Promise<void>[] = [];
  const start = preciseNow();
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - preciseNow();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    sends.push(send(i));
  }
  await Promise.all(sends);
}
