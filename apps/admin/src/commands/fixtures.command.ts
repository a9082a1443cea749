import type { Command } from 'commander';
import { FixturesService } from '#core/fixtures/fixtures.service.js';
import { readJsonFile } from '../read-json-file.js';
import type { CommandContext } from './command-context.js';

export function registerFixturesCommands(program: Command, context: CommandContext): void {
  const fixtures = program.command('fixtures').description('load test, demo and benchmark data');

  fixtures
    .command('load')
    .description('load a fixture file in one transaction (all or nothing); prints the refs → ids map')
    .argument('<file>', 'fixture file (JSON, the format of docs/operations-interface.md)')
    .action(async (file: string) => {
      // Read before booting, so a wrong path fails without touching the database.
      const fixture = await readJsonFile(file);
      await context.run((app) => app.get(FixturesService).load(fixture));
    });
}
