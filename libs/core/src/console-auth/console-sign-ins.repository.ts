import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';

// Better Auth refuses an expired session or sign-in link, but keeps its row; these let them go.
const PURGE_SESSIONS = defineStatement<[now: Date]>({
  name: 'purge_console_sessions',
  text: 'DELETE FROM console_sessions WHERE expires_at < $1',
});

const PURGE_LINKS = defineStatement<[now: Date]>({
  name: 'purge_console_sign_in_links',
  text: 'DELETE FROM console_verifications WHERE expires_at < $1',
});

/** A sign-in link not yet spent (it may have expired): whom it signs in, and until when. */
export interface PendingSignInLink {
  email: string;
  expiresAt: Date;
}

const PENDING_LINK = defineStatement<[identifier: string], PendingSignInLink>({
  name: 'pending_console_sign_in_link',
  text: `SELECT value::jsonb->>'email' AS email, expires_at AS "expiresAt" FROM console_verifications
  WHERE identifier = $1 ORDER BY created_at DESC LIMIT 1`,
});

/**
 * The console's sessions and sign-in links past their end, for the worker's housekeeping, and a
 * pending link read before it is spent, for the audit (docs/design-record.md#d26, #d29).
 */
@Injectable()
export class ConsoleSignInsRepository {
  constructor(private readonly database: Database) {}

  /** The link stored under the identifier (storedLinkIdentifier), spent or purged ones excepted. */
  pendingLink(identifier: string): Promise<PendingSignInLink | null> {
    return this.database.maybeOne(PENDING_LINK, [identifier]);
  }

  /** Deletes the sessions and links that ended before `now`; how many rows went. */
  async purgeEnded(now: Date): Promise<number> {
    const [sessions, links] = await Promise.all([this.database.execute(PURGE_SESSIONS, [now]), this.database.execute(PURGE_LINKS, [now])]);
    return sessions + links;
  }
}
