import { Injectable } from '@nestjs/common';
import { SecretsCipher } from '../../secrets/secrets-cipher.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

const BATCH = 500;
/** Below every UUID: where the walk through the endpoints starts. */
const BEFORE_ALL = '00000000-0000-0000-0000-000000000000';

/**
 * Seals every stored webhook secret under SECRETS_KEY's current key (docs/design-record.md#hardening):
 * the plain ones written before secrets were encrypted, and those of a key being retired. Safe to
 * run at any time and more than once, beside running services: each row is rewritten only if it
 * still holds what was read, and one that changed meanwhile is left to the next run. The rows are
 * walked once, in id order, so a secret that does not open is reported and passed over
 * (docs/design-record.md#d25) rather than read again and again or stopping the others.
 */
@Injectable()
export class WebhookSecretsResealer {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: SecretsCipher,
  ) {}

  async resealAll(): Promise<{ keyId: string; resealed: number; unopenable: string[] }> {
    let resealed = 0;
    const unopenable: string[] = [];
    let after = BEFORE_ALL;
    for (;;) {
      const rows = await this.endpoints.unsealedWithCurrentKey(after, BATCH);
      if (rows.length === 0) break;
      for (const row of rows) {
        const outcome = await this.endpoints.reseal(row);
        if (outcome === 'resealed') resealed++;
        if (outcome === 'unopenable') unopenable.push(row.id);
      }
      after = rows[rows.length - 1].id;
    }
    return { keyId: this.cipher.currentKeyId, resealed, unopenable };
  }
}
