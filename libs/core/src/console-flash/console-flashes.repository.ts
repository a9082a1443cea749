import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';

/** How long a flash waits for its page: a redirect is followed at once, so this is generous. */
export const FLASH_LIFETIME_MINUTES = 10;

const INSERT_FLASH = defineStatement<[id: string, sessionId: string, path: string, sealed: string]>({
  name: 'insert_console_flash',
  text: `INSERT INTO console_flashes (id, session_id, path, sealed, created_at) VALUES ($1, $2, $3, $4, now())`,
});

// Read and deleted in one statement: two tabs reloading at once cannot both show a secret.
const TAKE_FLASHES = defineStatement<[sessionId: string, path: string], { id: string; sealed: string }>({
  name: 'take_console_flashes',
  text: `DELETE FROM console_flashes
 WHERE session_id = $1 AND path = $2 AND created_at > now() - interval '${FLASH_LIFETIME_MINUTES} minutes'
 RETURNING id, sealed`,
});

const DROP_EXPIRED = defineStatement<[]>({
  name: 'drop_expired_console_flashes',
  text: `DELETE FROM console_flashes WHERE created_at <= now() - interval '${FLASH_LIFETIME_MINUTES} minutes'`,
});

@Injectable()
export class ConsoleFlashesRepository {
  constructor(private readonly database: Database) {}

  async insert(id: string, sessionId: string, path: string, sealed: string): Promise<void> {
    await this.database.execute(INSERT_FLASH, [id, sessionId, path, sealed]);
  }

  take(sessionId: string, path: string): Promise<{ id: string; sealed: string }[]> {
    return this.database.rows(TAKE_FLASHES, [sessionId, path]);
  }

  dropExpired(): Promise<number> {
    return this.database.execute(DROP_EXPIRED, []);
  }
}
