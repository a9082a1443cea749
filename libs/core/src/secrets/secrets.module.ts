import { Module } from '@nestjs/common';
import { SealedValuesRepository } from './sealed-values.repository.js';
import { SecretsCipher } from './secrets-cipher.js';
import { SecretsKeyCheck } from './secrets-key-check.js';
import { SecretsKeyChecksRepository } from './secrets-key-checks.repository.js';

/**
 * The cipher of stored secrets, and SECRETS_KEY's start check (docs/design-record.md#d25): every
 * module that seals or opens imports this one, so no process gets the cipher without the check.
 */
@Module({
  providers: [SecretsCipher, SecretsKeyChecksRepository, SealedValuesRepository, SecretsKeyCheck],
  exports: [SecretsCipher, SecretsKeyCheck],
})
export class SecretsModule {}
