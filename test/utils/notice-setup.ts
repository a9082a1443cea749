import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { AppConfig } from '#config/app-config.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { buildNoticeBody, deliveredNotice, type DeliveredNotice } from '#core/notices/outbox/notice-body.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import type { ServedNoticeType } from '#core/notices/outbox/notice-types.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { NOTICES_QUEUE } from '#jobs/queues.js';
import { seed } from './seed.js';

export interface TestBusiness {
  id: string;
  slug: string;
}

/** A business of its own for one test (nothing else: no members, staff or keys), seeded. */
export async function createBusiness(): Promise<TestBusiness> {
  const business = await seed({ name: 'Notices Salon', members: [] });
  return { id: business.id, slug: business.slug };
}

/** An endpoint registered as `admin webhook create` and `POST /webhook-endpoints` do; the entity carries its secret. */
export function createEndpoint(
  app: INestApplicationContext,
  business: TestBusiness,
  url: string,
  events: ServedNoticeType[],
): Promise<WebhookEndpointEntity> {
  // A business of createBusiness is live: its own share of name resolution (docs/design-record.md#d24).
  return app.get(WebhookEndpointsService).create(business.id, { url, events }, business.id, CURRENT_API_VERSION);
}

/**
 * A notice recorded in the outbox, as a write records it (with nothing else changed). Returned as
 * an endpoint of createEndpoint (the current version) receives it from a live business: with its
 * `mode` (docs/design-record.md#d23).
 */
export async function recordNotice(
  app: INestApplicationContext,
  business: TestBusiness,
  type: ServedNoticeType = 'client.created',
): Promise<DeliveredNotice> {
  const body = buildNoticeBody({
    type,
    businessSlug: business.slug,
    subjectId: randomUUID(),
    occurredAt: new Date(),
    ...(type === 'appointment.rescheduled' ? { previousId: randomUUID() } : {}),
  });
  await app.get(NoticesRepository).record(business.id, body);
  return deliveredNotice(body, 'live');
}

/**
 * Empties this run's notices queue before a worker starts: jobs an earlier test file left delayed
 * must not run into this one's receivers.
 */
export async function emptyNoticesQueue(config: AppConfig): Promise<void> {
  const queue = new Queue(NOTICES_QUEUE, { connection: { url: config.REDIS_URL }, prefix: config.QUEUE_PREFIX });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}
