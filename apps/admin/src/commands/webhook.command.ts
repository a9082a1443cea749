import { InvalidArgumentError, Option, type Command } from 'commander';
import { WebhooksService } from '#core/webhooks/webhooks.service.js';
import { DELIVERY_STATUSES } from '#database/entities/notice-delivery.entity.js';
import type { CommandContext } from './command-context.js';

interface CreateOptions {
  business: string;
  url: string;
  events: string[];
  member?: string;
}

interface EndpointOptions {
  business: string;
  id: string;
}

interface DeliveriesOptions {
  business: string;
  status?: string;
  notice?: string;
  limit?: number;
}

interface ReplayOptions {
  business: string;
  notice: string;
}

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseLimit(value: string): number {
  if (!/^\d{1,4}$/.test(value)) throw new InvalidArgumentError('Expected a whole number.');
  return Number(value);
}

export function registerWebhookCommands(program: Command, context: CommandContext): void {
  const webhook = program.command('webhook').description('webhook endpoints and the change notices delivered to them');

  webhook
    .command('create')
    .description('register an endpoint; prints { id, secret, ... }, the only time the secret is shown')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--url <url>', 'https address notices are POSTed to')
    .requiredOption('--events <list>', 'comma-separated event types, e.g. appointment.created,client.created', parseList)
    .option('--member <email>', 'e-mail of the OWNER or PARTNER registering it')
    .action((options: CreateOptions) =>
      context.run((app) =>
        app.get(WebhooksService).create({
          businessSlug: options.business,
          url: options.url,
          events: options.events,
          memberEmail: options.member,
        }),
      ),
    );

  webhook
    .command('list')
    .description("list the business's endpoints (never their secrets)")
    .requiredOption('--business <slug>', 'business slug')
    .action((options: { business: string }) => context.run((app) => app.get(WebhooksService).list(options.business)));

  webhook
    .command('rotate-secret')
    .description('give an endpoint a new secret (printed once); the old one stays valid, and signed with, for 24 hours')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--id <id>', 'endpoint id')
    .action((options: EndpointOptions) => context.run((app) => app.get(WebhooksService).rotateSecret(options.business, options.id)));

  webhook
    .command('enable')
    .description('enable an endpoint disabled by a 410 Gone or five days of failures')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--id <id>', 'endpoint id')
    .action((options: EndpointOptions) => context.run((app) => app.get(WebhooksService).enable(options.business, options.id)));

  webhook
    .command('deliveries')
    .description("list the business's notice deliveries, newest first, each with its last attempt")
    .requiredOption('--business <slug>', 'business slug')
    .addOption(new Option('--status <status>', 'only deliveries in this status').choices(DELIVERY_STATUSES))
    .option('--notice <id>', 'only the deliveries of this notice')
    .option('--limit <n>', 'at most this many (default 100, at most 1000)', parseLimit)
    .action((options: DeliveriesOptions) =>
      context.run((app) =>
        app.get(WebhooksService).listDeliveries(options.business, {
          status: options.status,
          noticeId: options.notice,
          limit: options.limit,
        }),
      ),
    );

  webhook
    .command('replay')
    .description('send a notice again, with the same notice id, to the endpoints it went to')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--notice <id>', 'notice id (webhook-id)')
    .action((options: ReplayOptions) => context.run((app) => app.get(WebhooksService).replay(options.business, options.notice)));
}
