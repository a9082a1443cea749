import type { Command } from 'commander';
import { OAUTH_CLIENT_SCOPES } from '#core/oauth/oauth-client-input.js';
import { OAuthClientsService } from '#core/oauth/oauth-clients.service.js';
import type { CommandContext } from './command-context.js';

interface CreateOptions {
  name: string;
  redirectUri: string[];
  scopes?: string[];
}

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** `--redirect-uri` is repeated, one address each (an address may hold a comma). */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** What the output says beside the secret, which only its hash is kept of. */
const SECRET_NOTICE = 'The client secret is shown this once and cannot be shown again; keep it in the app’s secret store now.';

export function registerOAuthClientCommands(program: Command, context: CommandContext): void {
  const client = program
    .command('oauth-client')
    .description('OAuth apps (docs/design-record.md#d30): their registrations, not the grants owners give');

  client
    .command('create')
    .description('register a confidential app (a server that keeps a secret); prints its client secret, the only time it is shown')
    .requiredOption('--name <name>', 'the name owners see on the consent page: 1 to 120 characters')
    .requiredOption(
      '--redirect-uri <uri>',
      'an address the app receives codes at: https, or http on localhost, 127.0.0.1 or [::1]; repeat for more',
      collect,
    )
    .option('--scopes <list>', `comma-separated scopes the app may ask for (default all: ${OAUTH_CLIENT_SCOPES.join(',')})`, parseList)
    .action((options: CreateOptions) =>
      context.run(async (app) => {
        const created = await app.get(OAuthClientsService).createConfidential({
          name: options.name,
          redirectUris: options.redirectUri,
          scopes: options.scopes,
        });
        return {
          clientId: created.clientId,
          clientSecret: created.clientSecret,
          name: created.name,
          kind: created.kind,
          redirectUris: created.redirectUris,
          scopes: created.scopes,
          tokenEndpointAuthMethod: 'client_secret_basic',
          createdAt: created.createdAt,
          notice: SECRET_NOTICE,
        };
      }),
    );

  client
    .command('list')
    .description('list every app, confidential, public and by metadata document, with its count of active grants (never a secret)')
    .action(() => context.run(async (app) => ({ clients: await app.get(OAuthClientsService).list() })));

  client
    .command('revoke')
    .description('disable an app (it can no longer be authorized or refresh) and end all its grants and their tokens at once')
    .requiredOption('--client-id <id>', 'the client id, as oauth-client create or list printed it')
    .action((options: { clientId: string }) => context.run((app) => app.get(OAuthClientsService).revoke(options.clientId)));
}
