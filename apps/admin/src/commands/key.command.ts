import type { Command } from 'commander';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import type { CommandContext } from './command-context.js';

interface CreateOptions {
  business: string;
  member: string;
  name: string;
  scopes: string[];
  test?: boolean;
}

interface RevokeOptions {
  business: string;
  prefix: string;
}

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
    .action((options: CreateOptions) =>
      context.run(async (app) => {
        const created = await app.get(ApiKeysService).create({
          businessSlug: options.business,
          memberEmail: options.member,
          name: options.name,
          scopes: options.scopes,
          test: options.test === true,
        });
        return {
          key: created.key,
          prefix: created.prefix,
          id: created.id,
          name: created.name,
          scopes: created.scopes,
          business: created.business,
          member: created.member,
          createdAt: created.createdAt,
          // A live key's output is as it was before test mode; a test key's says so (docs/design-record.md#d19).
          ...(created.mode === 'test' ? { mode: created.mode, sandboxCreated: created.sandboxCreated } : {}),
        };
      }),
    );

  key
    .command('revoke')
    .description('revoke the active keys of a business with this prefix (refused within 1 s everywhere)')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--prefix <prefix>', 'the key prefix, e.g. rk_live_AbCd (or rk_test_AbCd for a test key)')
    .action((options: RevokeOptions) => context.run((app) => app.get(ApiKeysService).revoke(options.business, options.prefix)));
}
