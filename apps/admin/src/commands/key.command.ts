import { CommanderError, Option, type Command } from 'commander';
import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
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

interface ApiVersionOptions {
  business: string;
  id: string;
  apiVersion: string;
}

interface RevokeOptions {
  business: string;
  id?: string;
  prefix?: string;
}

/** Commander's exit code for wrong usage, which runAdmin reports as USAGE. */
const EXIT_USAGE_CODE = 2;

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
    .requiredOption('--name <name>', 'name of the key, e.g. Website')
    .requiredOption('--scopes <list>', 'comma-separated scopes, e.g. appointments.read,services.read', parseList)
    .option('--test', "a test key (rk_test_) on the business's sandbox, which is made first when missing")
    .addOption(
      new Option('--api-version <version>', `API version the key is pinned to (default ${CURRENT_API_VERSION})`).choices(API_VERSIONS),
    )
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
    .description('pin one key to another API version (applies within 1 s everywhere, as a revocation does)')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--id <id>', 'the key id, as key create printed it')
    .addOption(
      new Option('--api-version <version>', 'API version the key is pinned to from now on').choices(API_VERSIONS).makeOptionMandatory(),
    )
    .action((options: ApiVersionOptions) =>
      context.run(async (app) => {
        const key = await app.get(ApiKeysService).setApiVersion(options.business, options.id, options.apiVersion);
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
      }),
    );

  key
    .command('revoke')
    .description('revoke one key of a business, by id or by prefix (refused within 1 s everywhere)')
    .requiredOption('--business <slug>', 'business slug')
    .option('--id <id>', 'the key id, as key create printed it')
    .option('--prefix <prefix>', 'the key prefix, e.g. rk_live_AbCd or rk_test_AbCd; refused when several active keys share it')
    .action((options: RevokeOptions) => {
      if ((options.id === undefined) === (options.prefix === undefined)) {
        throw new CommanderError(EXIT_USAGE_CODE, 'key.revoke', 'give exactly one of --id and --prefix');
      }
      return context.run(async (app) => {
        const which = options.id !== undefined ? { id: options.id } : { prefix: options.prefix! };
        const revoked = await app.get(ApiKeysService).revoke(options.business, which);
        await recordOperatorChange(app, { slug: revoked.business }, 'key.revoke', `${revoked.prefix} (${revoked.id})`);
        return revoked;
      });
    });
}
