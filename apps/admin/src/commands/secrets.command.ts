import type { Command } from 'commander';
import { WebhookSecretsResealer } from '#core/webhooks/webhook-secrets-resealer.js';
import type { CommandContext } from './command-context.js';

export function registerSecretsCommands(program: Command, context: CommandContext): void {
  const secrets = program.command('secrets').description('the secrets the service keeps in its database');

  secrets
    .command('re-encrypt')
    .description(
      "seal every webhook secret under SECRETS_KEY's first key (after an upgrade, or to retire a key); prints { keyId, resealed }",
    )
    .action(() => context.run((app) => app.get(WebhookSecretsResealer).resealAll()));
}
