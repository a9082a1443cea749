import type { Command } from 'commander';
import { DataSource } from 'typeorm';
import type { CommandContext } from './command-context.js';

export function registerMigrateCommand(program: Command, context: CommandContext): void {
  program
    .command('migrate')
    .description('apply the pending migrations; prints { applied: [names] }')
    .action(() =>
      context.run(async (app) => {
        // Each migration in its own transaction, as in every other place that migrates.
        const applied = await app.get(DataSource).runMigrations({ transaction: 'each' });
        return { applied: applied.map((migration) => migration.name) };
      }),
    );
}
