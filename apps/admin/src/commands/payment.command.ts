import { InvalidArgumentError, Option, type Command } from 'commander';
import { PaymentsService, RECORDABLE_PAYMENT_STATUSES } from '#core/payments/payments.service.js';
import { PAYMENT_CHANNELS, PAYMENT_METHODS } from '#database/entities/payment.entity.js';
import type { CommandContext } from './command-context.js';

interface RecordOptions {
  business: string;
  appointment: string;
  amount: number;
  method: string;
  status: string;
  channel: string;
}

function parseCents(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new InvalidArgumentError('Expected a whole number of cents.');
  return Number(value);
}

export function registerPaymentCommands(program: Command, context: CommandContext): void {
  const payment = program.command('payment').description('payments the business records');

  payment
    .command('record')
    .description('record a payment for an appointment; a PAID one emits payment.received; prints it')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--appointment <id>', 'appointment id')
    .requiredOption('--amount <cents>', 'amount in cents of the business currency', parseCents)
    .addOption(new Option('--method <method>', 'payment method').choices(PAYMENT_METHODS).makeOptionMandatory())
    .addOption(new Option('--status <status>', 'payment status').choices(RECORDABLE_PAYMENT_STATUSES).default('PAID'))
    .addOption(new Option('--channel <channel>', 'where it was paid').choices(PAYMENT_CHANNELS).default('IN_PERSON'))
    .action((options: RecordOptions) =>
      context.run((app) =>
        app.get(PaymentsService).record({
          businessSlug: options.business,
          appointmentId: options.appointment,
          amountCents: options.amount,
          method: options.method,
          status: options.status,
          channel: options.channel,
        }),
      ),
    );
}
