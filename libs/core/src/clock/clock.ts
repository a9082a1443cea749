/**
 * What time it is, for rules that last a set time (a rotated secret's 24 hours, the 30 days notices
 * are kept): a token, so that a test can move time forward instead of waiting for it.
 */
export const CLOCK = Symbol('CLOCK');

export interface Clock {
  now(): Date;
}

export const SYSTEM_CLOCK: Clock = { now: () => new Date() };
