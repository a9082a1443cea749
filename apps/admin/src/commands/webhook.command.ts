import type { INestApplicationContext } from '@nestjs/common';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from '#contract/versions/api-versions.js';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { NoticeDeliveriesService } from '#core/notices/delivery/notice-deliveries.service.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import { DELIVERY_STATUSES } from '#database/entities/notice-delivery.entity.js';
import type { CommandContext } from './command-context.js';
import { recordOperatorChange } from './operator-audit.js';
import { createdEndpointView, endpointView, rotatedSecretView } from './webhook-endpoint-views.js';

interface CreateOptions {
  business: string;
  url: string;
  events: string[];
  member?: string;
  apiVersion?: ApiVersion;
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

/** The command names a business by slug; the services take its id. */
const businessOf = (app: INestApplicationContext, slug: string): Promise<BusinessEntity> => app.get(BusinessesService).getBySlug(slug);

/** The live business, whose share of name resolution an address check takes (docs/design-record.md#d24). */
const tenantOf = (business: BusinessEntity): string => business.liveBusinessId ?? business.id;

export function registerWebhookCommands(program: Command, context: CommandContext): void {
  const webhook = program.command('webhook').description('webhook endpoints and the change notices delivered to them');

  webhook
    .command('create')
    .description('register an endpoint; prints { id, secret, ... }, the only time the secret is shown')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--url <url>', 'https address notices are POSTed to')
    .requiredOption('--events <list>', 'comma-separated event types, e.g. appointment.created,client.created', parseList)
    .option('--member <email>', 'e-mail of the OWNER or PARTNER registering it')
    .addOption(
      new Option('--api-version <version>', `API version its notices are shaped for (default ${CURRENT_API_VERSION})`).choices(
        API_VERSIONS,
      ),
    )
    .action((options: CreateOptions) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const endpoints = app.get(WebhookEndpointsService);
        const createdByMemberId = options.member === undefined ? null : await endpoints.registrantId(business.id, options.member);
        // No key creates it here: the current version unless one is chosen (docs/design-record.md#d22).
        const endpoint = await endpoints.create(
          business.id,
          { url: options.url, events: options.events, createdByMemberId, apiVersion: options.apiVersion },
          tenantOf(business),
          CURRENT_API_VERSION,
        );
        await recordOperatorChange(app, business, 'webhook.create', `${endpoint.url} (${endpoint.events.join(' ')})`);
        return createdEndpointView(endpoint, business.slug);
      }),
    );

  webhook
    .command('list')
    .description("list the business's endpoints (never their secrets)")
    .requiredOption('--business <slug>', 'business slug')
    .action((options: { business: string }) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const endpoints = await app.get(WebhookEndpointsService).list(business.id);
        return { business: business.slug, webhooks: endpoints.map((endpoint) => endpointView(endpoint, business.slug)) };
      }),
    );

  webhook
    .command('rotate-secret')
    .description('give an endpoint a new secret (printed once); the old one stays valid, and signed with, for 24 hours')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--id <id>', 'endpoint id')
    .action((options: EndpointOptions) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const rotated = await app.get(WebhookEndpointsService).rotateSecret(business.id, options.id);
        await recordOperatorChange(app, business, 'webhook.rotate-secret', rotated.url);
        return rotatedSecretView(rotated, business.slug);
      }),
    );

  webhook
    .command('enable')
    .description('enable an endpoint disabled by a 410 Gone or five days of failures')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--id <id>', 'endpoint id')
    .action((options: EndpointOptions) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const enabled = await app.get(WebhookEndpointsService).update(business.id, options.id, { active: true }, tenantOf(business));
        await recordOperatorChange(app, business, 'webhook.enable', enabled.url);
        return endpointView(enabled, business.slug);
      }),
    );

  webhook
    .command('deliveries')
    .description("list the business's notice deliveries, newest first, each with its last attempt")
    .requiredOption('--business <slug>', 'business slug')
    .addOption(new Option('--status <status>', 'only deliveries in this status').choices(DELIVERY_STATUSES))
    .option('--notice <id>', 'only the deliveries of this notice')
    .option('--limit <n>', 'at most this many (default 100, at most 1000)', parseLimit)
    .action((options: DeliveriesOptions) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const query = { status: options.status, noticeId: options.notice, limit: options.limit };
        return { business: business.slug, deliveries: await app.get(NoticeDeliveriesService).list(business.id, query) };
      }),
    );

  webhook
    .command('replay')
    .description('send a notice again, with the same notice id, to the endpoints it went to')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--notice <id>', 'notice id (webhook-id)')
    .action((options: ReplayOptions) =>
      context.run(async (app) => {
        const business = await businessOf(app, options.business);
        const sent = await app.get(NoticeDeliveriesService).sendAgain(business.id, options.notice, { to: 'endpoints-it-went-to' });
        await recordOperatorChange(app, business, 'webhook.redeliver', `notice ${sent.noticeId}`);
        return {
          business: business.slug,
          notice: sent.noticeId,
          relayed: sent.relayed,
          requeued: sent.queued.map((endpointId) => ({ endpointId })),
        };
      }),
    );
}
