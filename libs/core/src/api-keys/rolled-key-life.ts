import type { FieldError } from '../errors/domain-error.js';

/** How long the old key of a roll keeps working (docs/design-record.md#d29), Stripe's choices. */
export const ROLLED_KEY_LIVES = ['now', '1h', '24h', '7d'] as const;
export type RolledKeyLife = (typeof ROLLED_KEY_LIVES)[number];

const HOUR_MS = 60 * 60 * 1000;
const LIFE_MS: Readonly<Record<RolledKeyLife, number>> = { now: 0, '1h': HOUR_MS, '24h': 24 * HOUR_MS, '7d': 7 * 24 * HOUR_MS };

export function isRolledKeyLife(value: string): value is RolledKeyLife {
  return (ROLLED_KEY_LIVES as readonly string[]).includes(value);
}

/** The refusal of a life a roll does not offer, as a field problem at `path` (none when it is one). */
export function rolledKeyLifeProblems(value: string, path: string): FieldError[] {
  return isRolledKeyLife(value) ? [] : [{ path, message: `must be one of ${ROLLED_KEY_LIVES.join(', ')}` }];
}

/**
 * When the old key of a roll made at `now` stops working: `life` from now, but never later than an
 * expiry it already had (a roll does not lengthen what an earlier roll shortened).
 */
export function oldKeyExpiry(current: Date | null, life: RolledKeyLife, now: Date): Date {
  const asked = new Date(now.getTime() + LIFE_MS[life]);
  return current !== null && current.getTime() < asked.getTime() ? current : asked;
}

/** Whether a key with this expiry (null: none) still works at `now`: it stops at the instant itself. */
export function isUnexpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt === null || expiresAt.getTime() > now.getTime();
}
