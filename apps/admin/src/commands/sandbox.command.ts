import type { Command } from 'commander';
import { SandboxService } from '#core/sandbox/sandbox.service.js';
import type { CommandContext } from './command-context.js';

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
    .action((options: SandboxOptions) => context.run((app) => app.get(SandboxService).create(options.business)));

  sandbox
    .command('reset')
    .description(
      'put the sandbox back to a fresh copy of the live catalogue; its clients, appointments, notices, endpoints and e-mails go, its test keys stay',
    )
    .requiredOption('--business <slug>', 'the live business slug')
    .action((options: SandboxOptions) => context.run((app) => app.get(SandboxService).reset(options.business)));

  sandbox
    .command('emails')
    .description('the e-mails sandbox writes composed: kept as files in MAIL_DIR, never sent')
    .requiredOption('--business <slug>', 'the live business slug')
    .action((options: SandboxOptions) => context.run((app) => app.get(SandboxService).emails(options.business)));
}
