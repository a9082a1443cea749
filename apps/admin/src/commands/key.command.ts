import { CommanderError, Option, type Command } from 'commander';
import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { ApiKeysService, type KeyReference } from '#core/api-keys/api-keys.service.js';
import { ROLLED_KEY_LIVES } from '#core/api-keys/rolled-key-life.js';
import type { CommandContext } from './command-context.js';
import { recordOperatorChange } from './operator-audit.js';

interface CreateOptions {
  business: string;
  member: string;
  name: string;
  scopes: string[];
  test?: boolean;
  apiVersion?: string;
}

/** How a key subcommand names its key: exactly one of the two. */
interface KeyOptions {
  id?: string;
  prefix?: string;
}

interface ApiVersionOptions extends KeyOptions {
  business: string;
  apiVersion: string;
}

interface RevokeOptions extends KeyOptions {
  business: string;
}

interface RollOptions extends KeyOptions {
  business: string;
  member: string;
  expireOldIn: string;
}

/** Commander's exit code for wrong usage, which runAdmin reports as USAGE. */
const EXIT_USAGE_CODE = 2;

const ID_HELP = 'the key id, as key create printed it';
const PREFIX_HELP =
  'the key prefix, as fixtures load and key list print it, e.g. rk_live_AbCd or rk_test_AbCd; refused when several active keys share it';

/** The key named by --id or --prefix; USAGE unless exactly one is given. */
function keyNamed(command: string, options: KeyOptions): KeyReference {
  if ((options.id === undefined) === (options.prefix === undefined)) {
    throw new CommanderError(EXIT_USAGE_CODE, `key.${command}`, 'give exactly one of --id and --prefix');
  }
  return options.id !== undefined ? { id: options.id } : { prefix: options.prefix! };
}

// Versions are not Commander choices: the service refuses an unknown one (VALIDATION_FAILED at
// /apiVersion), with the words the console shows beside its field (docs/design-record.md#d29).
const VERSIONS_HELP = `${API_VERSIONS.join(', ')}`;

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function registerKeyCommands(program: Command, context: CommandContext): void {
  const key = program.command('key').description('API keys');

  key
    .command('create')
    .description('create a key; prints it, the only time it is shown')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--member <email>', 'e-mail of the OWNER or PARTNER creating it')
    .requiredOption('--name <name>', 'name of the key, e.g. Website: 1 to 120 characters, no control, bidirectional or zero-width ones')
    .requiredOption('--scopes <list>', 'comma-separated scopes, at least one, e.g. appointments.read,services.read', parseList)
    .option('--test', "a test key (rk_test_) on the business's sandbox, which is made first when missing")
    .option('--api-version <version>', `API version the key is pinned to: ${VERSIONS_HELP} (default ${CURRENT_API_VERSION})`)
    .action((options: CreateOptions) =>
      context.run(async (app) => {
        const created = await app.get(ApiKeysService).create({
          businessSlug: options.business,
          memberEmail: options.member,
          name: options.name,
          scopes: options.scopes,
          test: options.test === true,
          apiVersion: options.apiVersion,
        });
        const subject = `${created.name} (${created.prefix}, ${created.mode}, ${created.scopes.join(' ')})`;
        await recordOperatorChange(app, { slug: created.business }, 'key.create', subject);
        return {
          key: created.key,
          prefix: created.prefix,
          id: created.id,
          name: created.name,
          scopes: created.scopes,
          apiVersion: created.apiVersion,
          business: created.business,
          member: created.member,
          createdAt: created.createdAt,
          // A live key's output is as it was before test mode; a test key's says so (docs/design-record.md#d19).
          ...(created.mode === 'test' ? { mode: created.mode, sandboxCreated: created.sandboxCreated } : {}),
        };
      }),
    );

  key
    .command('list')
    .description("list a business's active keys, live and test (never the keys themselves, which are not stored)")
    .requiredOption('--business <slug>', 'business slug')
    .action((options: { business: string }) => context.run((app) => app.get(ApiKeysService).list(options.business)));

  key
    .command('api-version')
    .description('pin one key, by id or by prefix, to another API version (applies within 1 s everywhere, as a revocation does)')
    .requiredOption('--business <slug>', 'business slug')
    .option('--id <id>', ID_HELP)
    .option('--prefix <prefix>', PREFIX_HELP)
    .requiredOption('--api-version <version>', `API version the key is pinned to from now on: ${VERSIONS_HELP}`)
    .action((options: ApiVersionOptions) => {
      const named = keyNamed('api-version', options);
      return context.run(async (app) => {
        const key = await app.get(ApiKeysService).setApiVersion(options.business, named, options.apiVersion);
        await recordOperatorChange(app, { slug: key.business }, 'key.api-version', `${key.name} (${key.prefix}) to ${key.apiVersion}`);
        return {
          prefix: key.prefix,
          id: key.id,
          name: key.name,
          scopes: key.scopes,
          apiVersion: key.apiVersion,
          business: key.business,
          createdAt: key.createdAt,
          // As key create prints a test key (docs/design-record.md#d19).
          ...(key.mode === 'test' ? { mode: key.mode } : {}),
        };
      });
    });

  key
    .command('roll')
    .description(
      'roll one key, by id or by prefix: prints a new key with its name, scopes, version and mode (the only time it is shown); the old key stops working when --expire-old-in says',
    )
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--member <email>', 'e-mail of the OWNER or PARTNER rolling it (the new key is theirs)')
    .option('--id <id>', ID_HELP)
    .option('--prefix <prefix>', PREFIX_HELP)
    .addOption(new Option('--expire-old-in <life>', `when the old key stops working: ${ROLLED_KEY_LIVES.join(', ')}`).makeOptionMandatory())
    .action((options: RollOptions) => {
      const named = keyNamed('roll', options);
      return context.run(async (app) => {
        const rolled = await app.get(ApiKeysService).roll({
          businessSlug: options.business,
          memberEmail: options.member,
          key: named,
          oldKeyExpiresIn: options.expireOldIn,
        });
        await recordOperatorChange(
          app,
          { slug: options.business },
          'key.roll',
          `${rolled.name} (${rolled.prefix}), the old key expiring ${options.expireOldIn}`,
        );
        return rolled;
      });
    });

  key
    .command('revoke')
    .description('revoke one key of a business, by id or by prefix (refused within 1 s everywhere)')
    .requiredOption('--business <slug>', 'business slug')
    .option('--id <id>', ID_HELP)
    .option('--prefix <prefix>', PREFIX_HELP)
    .action((options: RevokeOptions) => {
      const named = keyNamed('revoke', options);
      return context.run(async (app) => {
        const revoked = await app.get(ApiKeysService).revoke(options.business, named);
        await recordOperatorChange(app, { slug: revoked.business }, 'key.revoke', `${revoked.prefix} (${revoked.id})`);
        return revoked;
      });
    });
}
