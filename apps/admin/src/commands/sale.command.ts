import type { Command } from 'commander';
import { SalesService } from '#core/sales/sales.service.js';
import { readJsonFile } from '../read-json-file.js';
import type { CommandContext } from './command-context.js';

interface RecordOptions {
  business: string;
  file: string;
}

export function registerSaleCommands(program: Command, context: CommandContext): void {
  const sale = program.command('sale').description('sales the business records');

  sale
    .command('record')
    .description(
      'record a sale from a JSON file { clientId?, appointmentId?, status?, paymentPending?, items: [{ type, name, ' +
        'serviceId?, quantity, unitPriceCents, discountCents?, costCents? }], internalNote? }; emits sale.created; prints it',
    )
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--file <file>', 'sale file (JSON)')
    .action(async (options: RecordOptions) => {
      // Read before booting, so a wrong path fails without touching the database.
      const json = await readJsonFile(options.file);
      await context.run((app) => app.get(SalesService).record(options.business, json));
    });
}
