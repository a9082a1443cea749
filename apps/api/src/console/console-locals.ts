import type { Response } from 'express';
import type { Membership } from '#core/businesses/businesses.repository.js';

/** The signed-in e-mail identity of the request, as the session middleware found it. */
export interface ConsoleSession {
  id: string;
  email: string;
}

interface ConsoleLocals {
  consoleSession?: ConsoleSession | null;
  membership?: Membership;
}

const locals = (res: Response): ConsoleLocals => res.locals as ConsoleLocals;

export function sessionOf(res: Response): ConsoleSession | null {
  return locals(res).consoleSession ?? null;
}

export function setSession(res: Response, session: ConsoleSession | null): void {
  locals(res).consoleSession = session;
}

/** The business the page is about: set only once the signed-in e-mail was found OWNER or PARTNER of it. */
export function membershipOf(res: Response): Membership {
  const membership = locals(res).membership;
  if (!membership) throw new Error('no business was checked for this console page');
  return membership;
}

export function setMembership(res: Response, membership: Membership): void {
  locals(res).membership = membership;
}
