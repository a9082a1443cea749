import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '#database/entities/notice-delivery.entity.js';
import { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { BusinessesRepository } from '../businesses/businesses.repository.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { DomainError, validationFailed, type FieldError } from '../errors/domain-error.js';
import { SWEEP_PAYLOAD } from '../notices/notice-channel.js';
import { NoticesRepository } from '../notices/notices.repository.js';
import { NoticeDeliveriesRepository, type DeliveryListItem } from './notice-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { isUuid } from '../ids/uuid.js';

const MAX_LISTED = 1000;

export interface NewWebhook {
  businessSlug: string;
  url: string;
  events: readonly string[];
  /** The OWNER or PARTNER registering it (docs/design-record.md#d2); absent when an operator does. */
  memberEmail?: string;
  description?: string | null;
}

export interface CreatedWebhook {
  id: string;
  /** Shown this once; it cannot be read back. */
  secret: string;
  business: string;
  url: string;
  events: string[];
  description: string | null;
  createdAt: string;
}

export interface WebhookView {
  id: string;
  business: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** While set, deliveries are also signed with the secret before the last rotation. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveriesQuery {
  status?: string;
  noticeId?: string;
  limit?: number;
}

function view(endpoint: WebhookEndpointEntity, business: string): WebhookView {
  return {
    id: endpoint.id,
    business,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

function isDeliveryStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** The business side of change notices: endpoints, their secrets, and what was delivered to them. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly database: Database,
    private readonly businesses: BusinessesService,
    private readonly businessesRepository: BusinessesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly endpointsService: WebhookEndpointsService,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly notices: NoticesRepository,
  ) {}

  /** Registers an endpoint by the rules every endpoint follows (WebhookEndpointsService), on behalf of a member when one is named. */
  async create(input: NewWebhook): Promise<CreatedWebhook> {
    const business = await this.businesses.getBySlug(input.businessSlug);
    let memberId: string | null = null;
    if (input.memberEmail !== undefined) {
      const member = await this.businessesRepository.findMemberByEmail(business.id, input.memberEmail);
      if (!member) throw new DomainError('NOT_FOUND', `No member of ${business.slug} has the e-mail ${input.memberEmail}.`);
      if (member.role !== 'OWNER' && member.role !== 'PARTNER') {
        throw validationFailed([
          { path: '/member', message: `only an OWNER or PARTNER registers webhook endpoints; ${member.email} is ${member.role}` },
        ]);
      }
      memberId = member.id;
    }
    const endpoint = await this.endpointsService.create(
      business.id,
      {
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        createdByMemberId: memberId,
      },
      business.liveBusinessId ?? business.id,
    );
    return {
      id: endpoint.id,
      secret: endpoint.secret,
      business: business.slug,
      url: endpoint.url,
      events: endpoint.events,
      description: endpoint.description,
      createdAt: endpoint.createdAt.toISOString(),
    };
  }

  async list(businessSlug: string): Promise<{ business: string; webhooks: WebhookView[] }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const endpoints = await this.endpoints.listByBusiness(business.id);
    return { business: business.slug, webhooks: endpoints.map((endpoint) => view(endpoint, business.slug)) };
  }

  /** A new secret, printed once; the old one stays valid, and signed with, for 24 hours. */
  async rotateSecret(
    businessSlug: string,
    endpointId: string,
  ): Promise<{ id: string; business: string; secret: string; previousSecretExpiresAt: string }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const rotated = await this.endpointsService.rotateSecret(business.id, endpointId);
    return {
      id: rotated.id,
      business: business.slug,
      secret: rotated.secret,
      previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? '',
    };
  }

  /** Enables an endpoint that a 410 or five days of failures disabled. Past deliveries stay as they are (replay them). */
  async enable(businessSlug: string, endpointId: string): Promise<WebhookView> {
    const business = await this.businesses.getBySlug(businessSlug);
    return view(
      await this.endpointsService.update(business.id, endpointId, { active: true }, business.liveBusinessId ?? business.id),
      business.slug,
    );
  }

  /** The business's deliveries, newest first, each with its last attempt. */
  async listDeliveries(businessSlug: string, query: DeliveriesQuery): Promise<{ business: string; deliveries: DeliveryListItem[] }> {
    const errors: FieldError[] = [];
    const { status, noticeId } = query;
    const limit = query.limit ?? 100;
    if (status !== undefined && !isDeliveryStatus(status)) {
      errors.push({ path: '/status', message: `must be one of ${DELIVERY_STATUSES.join(', ')}` });
    }
    if (noticeId !== undefined && !isUuid(noticeId)) errors.push({ path: '/notice', message: 'must be a UUID' });
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LISTED) {
      errors.push({ path: '/limit', message: `must be an integer from 1 to ${MAX_LISTED}` });
    }
    if (errors.length > 0) throw validationFailed(errors);
    const business = await this.businesses.getBySlug(businessSlug);
    const deliveries = await this.deliveries.list(business.id, {
      status: status !== undefined && isDeliveryStatus(status) ? status : undefined,
      noticeId,
      limit,
    });
    return { business: business.slug, deliveries };
  }

  /**
   * Sends a notice again to the endpoints it went to, with the same notice id (receivers
   * deduplicate on it): its DELIVERED and FAILED deliveries go back to PENDING with a fresh
   * schedule, and the worker is told to queue them at once. PENDING ones are already on their way.
   */
  async replay(
    businessSlug: string,
    noticeId: string,
  ): Promise<{ business: string; notice: string; relayed: boolean; requeued: { endpointId: string }[] }> {
    const business = await this.businesses.getBySlug(businessSlug);
    const notice = isUuid(noticeId) ? await this.notices.findById(business.id, noticeId) : null;
    if (!notice) throw new DomainError('NOT_FOUND', `${business.slug} has no notice ${noticeId}.`);
    const requeued = await this.database.transactional(async () => {
      const refs = await this.deliveries.requeue(business.id, notice.id);
      if (refs.length > 0) await this.notices.notifyWorker(SWEEP_PAYLOAD);
      return refs;
    });
    return {
      business: business.slug,
      notice: notice.id,
      relayed: notice.relayedAt !== null,
      requeued: requeued.map((ref) => ({ endpointId: ref.endpointId })),
    };
  }

  private endpointNotFound(slug: string, endpointId: string): DomainError {
    return new DomainError('NOT_FOUND', `${slug} has no webhook endpoint ${endpointId}.`);
  }
}
