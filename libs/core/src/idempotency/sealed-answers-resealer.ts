import { Injectable } from '@nestjs/common';
import { SecretsCipher } from '../secrets/secrets-cipher.js';
import { answerSealingId } from './sealed-answer.js';
import { SealedAnswersRepository } from './sealed-answers.repository.js';

const BATCH = 500;
/** Below every UUID: where the walk through the records starts. */
const BEFORE_ALL = '00000000-0000-0000-0000-000000000000';

/**
 * Seals the stored idempotent answers that hold a secret under SECRETS_KEY's current key, as
 * WebhookSecretsResealer does for the endpoints' own (`admin secrets re-encrypt`), so that a
 * retired key can be removed without waiting for them to expire. Walked once in id order: an answer
 * that does not open is passed over (it expires within 24 hours), and one changed meanwhile (a
 * record is never changed once stored, so resealed by another run, or purged) is left as it is.
 */
@Injectable()
export class SealedAnswersResealer {
  constructor(
    private readonly answers: SealedAnswersRepository,
    private readonly cipher: SecretsCipher,
  ) {}

  async resealAll(): Promise<number> {
    let resealed = 0;
    let after = BEFORE_ALL;
    for (;;) {
      const rows = await this.answers.sealedNotWith(this.cipher.currentPrefix, after, BATCH);
      if (rows.length === 0) break;
      for (const row of rows) {
        const body = this.opened(row.responseBody, answerSealingId(row));
        if (body !== null && (await this.answers.reseal(row, this.cipher.seal(body, answerSealingId(row))))) resealed++;
      }
      after = rows[rows.length - 1].id;
    }
    return resealed;
  }

  private opened(stored: string, sealingId: string): string | null {
    try {
      return this.cipher.open(stored, sealingId);
    } catch {
      return null;
    }
  }
}
