import { InvalidArgumentError, type Command } from 'commander';
import type { CommandContext } from '#extensions-api/command-context.js';
import { WaitlistService } from '../waitlist.service.js';

interface ListOptions {
  business: string;
  service?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseServiceId(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError('Expected a service id (a UUID).');
  return value.toLowerCase();
}

export function registerWaitlistCommands(program: Command, context: CommandContext): void {
  const waitlist = program.command('waitlist').description('clients waiting for a free slot of a service');

  waitlist
    .command('list')
    .description("list the business's waitlist entries, oldest first (at most 1000)")
    .requiredOption('--business <slug>', 'business slug')
    .option('--service <id>', 'only the entries of this service', parseServiceId)
    .action((options: ListOptions) =>
      context.run(async (app) => ({
        entries: await app.get(WaitlistService).listForBusiness(options.business, options.service ?? null),
      })),
    );
}
