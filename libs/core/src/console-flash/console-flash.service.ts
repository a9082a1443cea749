import { Injectable } from '@nestjs/common';
import { newId } from '#database/new-id.js';
import { SecretsCipher } from '../secrets/secrets-cipher.js';
import { ConsoleFlashesRepository } from './console-flashes.repository.js';

/**
 * One-time messages from a POST to the page its 303 names (docs/design-record.md#d29): kept on the
 * server, never in a URL, for one session and one path, and gone once that page has read them, so
 * a reload or Back shows the page without them. A flash may hold a secret (a new key), so it is
 * sealed at rest like a webhook secret.
 */
@Injectable()
export class ConsoleFlashService {
  constructor(
    private readonly flashes: ConsoleFlashesRepository,
    private readonly cipher: SecretsCipher,
  ) {}

  async put(sessionId: string, path: string, value: unknown): Promise<void> {
    const id = newId();
    await this.flashes.insert(id, sessionId, path, this.cipher.seal(JSON.stringify(value), id));
  }

  /** What was left for this page of this session, oldest first; each is given once. */
  async take(sessionId: string, path: string): Promise<unknown[]> {
    const rows = await this.flashes.take(sessionId, path);
    if (rows.length > 0) await this.flashes.dropExpired();
    return rows.map((row) => JSON.parse(this.cipher.open(row.sealed, row.id)) as unknown);
  }
}
