import { DomainError } from '../errors/domain-error.js';
import type { ApiKeyMode } from './api-key-format.js';

/**
 * The keys a business may hold and make (docs/design-record.md#d28): its keys are its share of the
 * rate limit (120 a minute each), so their number bounds what one business can ask of a process.
 */
export const MAX_ACTIVE_KEYS_PER_MODE = 10;

/** Keys the console makes per business (live and test together) within CONSOLE_KEY_WINDOW_MS. */
export const CONSOLE_KEYS_PER_HOUR = 20;
export const CONSOLE_KEY_WINDOW_MS = 60 * 60 * 1000;

/** KEY_LIMIT when the business row already holds its mode's most keys; a business over it keeps them. */
export function keyLimitRefusal(slug: string, mode: ApiKeyMode, active: number): DomainError | null {
  if (active < MAX_ACTIVE_KEYS_PER_MODE) return null;
  return new DomainError(
    'KEY_LIMIT',
    `${slug} has ${active} active ${mode} keys; a business holds at most ${MAX_ACTIVE_KEYS_PER_MODE} per mode (live, test). Revoke one to make another.`,
  );
}

/**
 * API_RATE_LIMIT when the console has made its hourly keys for the business; Retry-After is when
 * the oldest of them leaves the window.
 */
export function consoleKeyRateRefusal(made: { n: number; oldest: Date | null }, now: Date): DomainError | null {
  if (made.n < CONSOLE_KEYS_PER_HOUR) return null;
  const freedAt = (made.oldest ?? now).getTime() + CONSOLE_KEY_WINDOW_MS;
  const seconds = Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new DomainError(
    'API_RATE_LIMIT',
    `The console makes at most ${CONSOLE_KEYS_PER_HOUR} keys per business an hour, and has made ${made.n} in the last hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    [],
    seconds,
  );
}
