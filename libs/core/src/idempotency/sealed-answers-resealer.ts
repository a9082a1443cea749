import { Injectable } from '@nestjs/common';
import { SecretsCipher } from '../secrets/secrets-cipher.js';
import { answerSealingId } from './sealed-answer.js';
import { SealedAnswersRepository } from './sealed-answers.repository.js';

const BATCH = 500;

/**
 * Seals the stored idempotent answers that hold a secret under SECRETS_KEY's current key, as
 * WebhookSecretsResealer does for the endpoints' own (`admin secrets re-encrypt`), so that a
 * retired key can be removed without waiting for them to expire.
 */
@Injectable()
export class SealedAnswersResealer {
  constructor(
    private readonly answers: SealedAnswersRepository,
    private readonly cipher: SecretsCipher,
  ) {}

  async resealAll(): Promise<number> {
    let resealed = 0;
    for (;;) {
      const rows = await this.answers.sealedNotWith(this.cipher.currentPrefix, BATCH);
      if (rows.length === 0) break;
      // A record is never changed once stored: one this write misses was resealed by another run
      // or purged, and the next read does not return it.
      for (const row of rows) {
        const sealingId = answerSealingId(row);
        if (await this.answers.reseal(row, this.cipher.seal(this.cipher.open(row.responseBody, sealingId), sealingId))) resealed++;
      }
    }
    return resealed;
  }
}
