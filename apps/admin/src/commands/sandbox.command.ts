import type { Command } from 'commander';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import type { CommandContext } from './command-context.js';
import { recordOperatorChange } from './operator-audit.js';

interface SandboxOptions {
  business: string;
}

/** Test mode's sandbox of a live business (docs/design-record.md#d19). */
export function registerSandboxCommands(program: Command, context: CommandContext): void {
  const sandbox = program.command('sandbox').description("a business's sandbox, which its test keys (rk_test_) read and change");

  sandbox
    .command('create')
    .description('make the sandbox: a copy of the live catalogue (services, staff, hours, blocks, settings), nothing else')
    .requiredOption('--business <slug>', 'the live business slug')
    .action((options: SandboxOptions) =>
      context.run(async (app) => {
        const made = await app.get(SandboxService).create(options.business);
        await recordOperatorChange(app, { slug: made.business }, 'sandbox.create', made.sandbox.slug);
        return made;
      }),
    );

  sandbox
    .command('reset')
    .description(
      'put the sandbox back to a fresh copy of the live catalogue; its clients, appointments, notices, endpoints and e-mails go, its test keys stay',
    )
    .requiredOption('--business <slug>', 'the live business slug')
    .action((options: SandboxOptions) =>
      context.run(async (app) => {
        const reset = await app.get(SandboxService).reset(options.business);
        await recordOperatorChange(app, { slug: reset.business }, 'sandbox.reset', reset.sandbox.slug);
        return reset;
      }),
    );

  sandbox
    .command('emails')
    .description('the e-mails sandbox writes composed: kept as files in MAIL_DIR, never sent')
    .requiredOption('--business <slug>', 'the live business slug')
    .action((options: SandboxOptions) => context.run((app) => app.get(SandboxService).emails(options.business)));
}
