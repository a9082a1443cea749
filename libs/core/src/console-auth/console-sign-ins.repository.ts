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

/** The console's sessions and sign-in links past their end, for the worker's housekeeping (docs/design-record.md#d26). */
@Injectable()
export class ConsoleSignInsRepository {
  constructor(private readonly database: Database) {}

  /** Deletes the sessions and links that ended before `now`; how many rows went. */
  async purgeEnded(now: Date): Promise<number> {
    const [sessions, links] = await Promise.all([this.database.execute(PURGE_SESSIONS, [now]), this.database.execute(PURGE_LINKS, [now])]);
    return sessions + links;
  }
}
