import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { ConfigError } from '#config/app-config.js';
import { SealedValuesRepository } from './sealed-values.repository.js';
import { SecretsCipher } from './secrets-cipher.js';
import { SecretsKeyChecksRepository } from './secrets-key-checks.repository.js';

const quoted = (ids: readonly string[]): string => ids.map((id) => `"${id}"`).join(', ');

function keyChangedMessage(ids: readonly string[]): string {
  const [first] = ids;
  return (
    `SECRETS_KEY gives the key id ${quoted(ids)} a key that is not the one that sealed under that id (its check value in ` +
    'the table secrets_key_checks differs), so this process does not start: it could not open what was sealed under it, and ' +
    `what it sealed would not open in the other processes. Give ${quoted(ids)} the key it had. A new key needs a new id: put ` +
    `it first and keep the old one after it (SECRETS_KEY=<new id>:<new key>,${first}:<the key it had>), start, then run ` +
    '`admin secrets re-encrypt`.'
  );
}

function keysMissingMessage(ids: readonly string[], currentId: string): string {
  return (
    `Values stored in the database (webhook secrets, stored idempotent answers) are sealed under the key id ${quoted(ids)}, ` +
    'which SECRETS_KEY does not hold, so this process does not start: it could not open them. Add each such key back after ' +
    `the current one (SECRETS_KEY=${currentId}:<current key>,${ids.map((id) => `${id}:<its key>`).join(',')}), start, then ` +
    'run `admin secrets re-encrypt` to seal everything under the current key; the old key can be removed once it has run.'
  );
}

/**
 * Provided as true by an application that runs SecretsKeyCheck.verify itself once booted (the admin
 * commands, apps/admin/src/admin-context.ts): a refusal thrown from a start hook would leave its
 * database pool open, and a command line must end by itself.
 */
export const SECRETS_KEY_CHECKED_AFTER_BOOT = Symbol('SECRETS_KEY_CHECKED_AFTER_BOOT');

/**
 * SECRETS_KEY checked against the database at start (docs/design-record.md#d25), before anything
 * in the process seals or opens a stored secret. Refused, with a ConfigError whose one paragraph
 * names the key ids and the remedy:
 * - a key id whose key is not the one that sealed under it: told by the check value kept per key
 *   id (secrets_key_checks), never by trying to open stored values;
 * - values sealed under a key id SECRETS_KEY does not hold.
 * Duplicate key ids are refused before, by loadConfig. The first start with a new current key
 * records its check value. A key id no longer configured and with nothing sealed under it is
 * retired: its check value is dropped.
 */
@Injectable()
export class SecretsKeyCheck implements OnModuleInit {
  constructor(
    private readonly cipher: SecretsCipher,
    private readonly checks: SecretsKeyChecksRepository,
    private readonly sealed: SealedValuesRepository,
    @Optional() @Inject(SECRETS_KEY_CHECKED_AFTER_BOOT) private readonly checkedAfterBoot?: boolean,
  ) {}

  // onModuleInit of a module every sealing or opening module imports: it runs before theirs
  // (Nest calls the hooks of the deepest modules first), so before the worker takes a job.
  async onModuleInit(): Promise<void> {
    if (this.checkedAfterBoot !== true) await this.verify();
  }

  async verify(): Promise<void> {
    const configured = this.cipher.keyIds;
    const recorded = await this.checks.all();
    const changed = configured.filter((id) => recorded.has(id) && recorded.get(id) !== this.cipher.checkValueOf(id));
    if (changed.length > 0) throw new ConfigError(keyChangedMessage(changed));

    const missing = new Set((await this.sealed.webhookSecretKeyIds()).filter((id) => !configured.includes(id)));
    for (const id of recorded.keys()) {
      if (configured.includes(id) || missing.has(id)) continue;
      if (await this.sealed.answerSealedUnder(id)) missing.add(id);
      else await this.checks.forget(id);
    }
    if (missing.size > 0) throw new ConfigError(keysMissingMessage([...missing], this.cipher.currentKeyId));

    // The current key seals: its check value is recorded before it seals anything. Another
    // process recording a different key under the same id at the same moment wins or loses the
    // insert; the loser reads the winner's value and refuses.
    const current = this.cipher.currentKeyId;
    if (!recorded.has(current)) {
      await this.checks.record(current, this.cipher.checkValueOf(current));
      if ((await this.checks.all()).get(current) !== this.cipher.checkValueOf(current)) {
        throw new ConfigError(keyChangedMessage([current]));
      }
    }
  }
}
