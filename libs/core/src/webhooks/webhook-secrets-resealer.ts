import { Injectable } from '@nestjs/common';
import { SecretsCipher } from '../secrets/secrets-cipher.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

const BATCH = 500;

/**
 * Seals every stored webhook secret under SECRETS_KEY's current key (docs/design-record.md#hardening):
 * the plain ones written before secrets were encrypted, and those of a key being retired. Safe to
 * run at any time and more than once, beside running services: each row is rewritten only if it
 * still holds what was read.
 */
@Injectable()
export class WebhookSecretsResealer {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: SecretsCipher,
  ) {}

  async resealAll(): Promise<{ keyId: string; resealed: number }> {
    let resealed = 0;
    for (;;) {
      const rows = await this.endpoints.unsealedWithCurrentKey(BATCH);
      if (rows.length === 0) break;
      for (const row of rows) if (await this.endpoints.reseal(row)) resealed++;
    }
    return { keyId: this.cipher.currentKeyId, resealed };
  }
}
