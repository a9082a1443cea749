import { once, type EventEmitter } from 'node:events';
import type { INestApplicationContext } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { symbols } from 'pino';

/** pino's default destination (sonic-boom): asynchronous writes to stdout, and 'drain' once none is pending. */
interface AsyncDestination extends EventEmitter {
  write(data: string): boolean;
  flushSync(): void;
}

/**
 * Resolves once every line the application has logged so far is written to stdout. pino writes
 * asynchronously, and its flush(cb) answers at once when nothing is buffered, even while a write
 * is under way; an empty write, queued behind the others, drains only after them. A destination
 * that writes synchronously (process.stdout) has nothing pending.
 */
export async function logsWritten(app: INestApplicationContext): Promise<void> {
  const { logger } = await app.resolve(PinoLogger);
  const destination = (logger as unknown as Record<symbol, Partial<AsyncDestination>>)[symbols.streamSym];
  if (typeof destination.flushSync !== 'function' || typeof destination.on !== 'function') return;
  const drained = once(destination as AsyncDestination, 'drain');
  destination.write!('');
  await drained;
}
