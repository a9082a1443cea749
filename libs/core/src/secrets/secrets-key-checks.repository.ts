import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { SecretsKeyCheckEntity } from '#database/entities/secrets-key-check.entity.js';
import { defineStatement } from '#database/statement.js';

type KeyCheck = Pick<SecretsKeyCheckEntity, 'keyId' | 'checkValue'>;

const ALL_CHECKS = defineStatement<[], KeyCheck>({
  name: 'secrets_key_checks',
  text: `SELECT key_id AS "keyId", check_value AS "checkValue" FROM secrets_key_checks ORDER BY key_id`,
});

// Two processes starting at once with a new key id: the first check value stays, and the other
// process reads it back and compares it with its own.
const RECORD_CHECK = defineStatement<[keyId: string, checkValue: string]>({
  name: 'record_secrets_key_check',
  text: `INSERT INTO secrets_key_checks (key_id, check_value) VALUES ($1, $2) ON CONFLICT (key_id) DO NOTHING`,
});

const FORGET_CHECK = defineStatement<[keyId: string]>({
  name: 'forget_secrets_key_check',
  text: `DELETE FROM secrets_key_checks WHERE key_id = $1`,
});

/** The check value kept per key id of SECRETS_KEY (docs/design-record.md#d25). */
@Injectable()
export class SecretsKeyChecksRepository {
  constructor(private readonly database: Database) {}

  /** Every recorded check value, by key id. */
  async all(): Promise<Map<string, string>> {
    return new Map((await this.database.rows(ALL_CHECKS, [])).map((row) => [row.keyId, row.checkValue]));
  }

  /** Records the key id's check value unless one is recorded already (which then stays). */
  async record(keyId: string, checkValue: string): Promise<void> {
    await this.database.execute(RECORD_CHECK, [keyId, checkValue]);
  }

  /** Drops the check value of a key id nothing is sealed under any more. */
  async forget(keyId: string): Promise<void> {
    await this.database.execute(FORGET_CHECK, [keyId]);
  }
}
