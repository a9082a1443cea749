import type { Command } from 'commander';
import { SealedAnswersResealer } from '#core/idempotency/sealed-answers-resealer.js';
import { WebhookSecretsResealer } from '#core/notices/endpoints/webhook-secrets-resealer.js';
import type { CommandContext } from './command-context.js';

export function registerSecretsCommands(program: Command, context: CommandContext): void {
  const secrets = program.command('secrets').description('the secrets the service keeps in its database');

  secrets
    .command('re-encrypt')
    .description(
      "seal every webhook secret, and every stored idempotent answer that holds one, under SECRETS_KEY's first key (after an upgrade, or to retire a key); prints { keyId, resealed, resealedAnswers, unopenable: [endpoint ids whose secret does not open] }",
    )
    .action(() =>
      context.run(async (app) => {
        const { keyId, resealed, unopenable } = await app.get(WebhookSecretsResealer).resealAll();
        return { keyId, resealed, resealedAnswers: await app.get(SealedAnswersResealer).resealAll(), unopenable };
      }),
    );
}
