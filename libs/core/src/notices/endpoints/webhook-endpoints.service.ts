import { ServedContract } from '#contract/served-contract.js';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { apiVersionProblems, isApiVersion, type ApiVersion } from '#contract/versions/api-versions.js';
import { Database } from '#database/database.js';
import { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { newId } from '#database/new-id.js';
import { BusinessesRepository } from '../../businesses/businesses.repository.js';
import { managesIntegrations } from '../../businesses/member-rights.js';
import { CLOCK, type Clock } from '../../clock/clock.js';
import { DomainError, notFound, validationFailed } from '../../errors/domain-error.js';
import { isUuid } from '../../ids/uuid.js';
import { NOTICE_RETENTION_MS } from '../outbox/notice-channel.js';
import { CursorCodec, type CursorScope } from '../../pagination/cursor-codec.js';
import { paginate, type Page, type PageParams } from '../../pagination/page.js';
import { resolveDeliveryTarget } from './delivery-target.js';
import { NoticeDeliveriesRepository, type EndpointAttempt } from '../delivery/notice-deliveries.repository.js';
import { NOTICE_SEND_LIMITS, type NoticeSendLimits } from '../delivery/notice-sender.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { checkSubscribedTypes } from '../outbox/notice-types.js';
import { WebhookResolver } from './webhook-resolver.js';
import { generateWebhookSecret } from './webhook-secret.js';

/** At most this many endpoints per business (docs/design-record.md#d17). */
export const MAX_ENDPOINTS_PER_BUSINESS = 16;

/** After a rotation the old secret is still signed with, and so still valid, this long (docs/design-record.md#d9). */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

export interface NewEndpoint {
  url: string;
  events: readonly string[];
  description?: string | null;
  /** The OWNER or PARTNER who registered it through the admin command line; null otherwise. */
  createdByMemberId?: string | null;
  /** The version its notices are shaped for, when its creator chose one (docs/design-record.md#d22). */
  apiVersion?: string;
}

export interface EndpointChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  active?: boolean;
}

/**
 * A new endpoint as it is stored, active, with a fresh secret: the one way its row is made (the
 * fixture loader too). `apiVersion`: the version it is pinned to (docs/design-record.md#d22), checked by the caller.
 */
export function newEndpointRow(businessId: string, input: NewEndpoint, now: Date, apiVersion: ApiVersion): WebhookEndpointEntity {
  return Object.assign(new WebhookEndpointEntity(), {
    id: newId(),
    businessId,
    url: input.url,
    events: [...input.events],
    description: input.description ?? null,
    secret: generateWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    apiVersion,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdByMemberId: input.createdByMemberId ?? null,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * A business's webhook endpoints (docs/design-record.md#d17): the one place they are registered,
 * changed, rotated and deleted, whether through the API or the admin command line, so both make
 * the same objects under the same rules: the address rules of D9 at registration and change (and
 * again at every send), the event types, and at most 16 endpoints.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly config: AppConfig,
    private readonly contract: ServedContract,
    private readonly database: Database,
    private readonly businesses: BusinessesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly resolver: WebhookResolver,
    @Inject(NOTICE_SEND_LIMITS) private readonly limits: NoticeSendLimits,
    private readonly deliveryLog: NoticeDeliveriesRepository,
    private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  list(businessId: string): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.listByBusiness(businessId);
  }

  async get(businessId: string, endpointId: string): Promise<WebhookEndpointEntity> {
    const endpoint = isUuid(endpointId) ? await this.endpoints.findById(businessId, endpointId) : null;
    if (!endpoint) throw notFound('The webhook endpoint');
    return endpoint;
  }

  /**
   * The member an endpoint is registered on behalf of (`admin webhook create --member`), by
   * e-mail: only an OWNER or PARTNER registers endpoints (docs/design-record.md#d2).
   */
  async registrantId(businessId: string, email: string): Promise<string> {
    const member = await this.businesses.findMemberByEmail(businessId, email);
    if (!member) throw new DomainError('NOT_FOUND', `No member of the business has the e-mail ${email}.`);
    if (!managesIntegrations(member.role)) {
      throw validationFailed([
        { path: '/member', message: `only an OWNER or PARTNER registers webhook endpoints; ${member.email} is ${member.role}` },
      ]);
    }
    return member.id;
  }

  /**
   * `tenantId`: the live business (docs/design-record.md#d24), whose share of name resolution the
   * address check takes. `creatorVersion`: the creating key's version, what the endpoint is pinned
   * to unless `input.apiVersion` names another (docs/design-record.md#d22); the admin command line,
   * which has no key, gives the current one.
   */
  async create(businessId: string, input: NewEndpoint, tenantId: string, creatorVersion: ApiVersion): Promise<WebhookEndpointEntity> {
    this.checkEvents(input.events);
    const apiVersion = input.apiVersion ?? creatorVersion;
    if (!isApiVersion(apiVersion)) throw validationFailed(apiVersionProblems(apiVersion, '/apiVersion'));
    await this.checkAddress(input.url, tenantId);
    const endpoint = newEndpointRow(businessId, input, this.clock.now(), apiVersion);
    await this.database.transactional(async () => {
      if ((await this.endpoints.countLocked(businessId)) >= MAX_ENDPOINTS_PER_BUSINESS) {
        throw new DomainError(
          'WEBHOOK_ENDPOINT_LIMIT',
          `A business has at most ${MAX_ENDPOINTS_PER_BUSINESS} webhook endpoints; delete one before adding another.`,
        );
      }
      await this.endpoints.insert(endpoint);
    });
    return endpoint;
  }

  /**
   * Changes what is sent; a field not given stays. Enabling clears why the service disabled it
   * and its run of failures; disabling makes the pending deliveries fail at their next attempt.
   */
  async update(businessId: string, endpointId: string, changes: EndpointChanges, tenantId: string): Promise<WebhookEndpointEntity> {
    const current = await this.get(businessId, endpointId);
    if (changes.events !== undefined) this.checkEvents(changes.events);
    if (changes.url !== undefined && changes.url !== current.url) await this.checkAddress(changes.url, tenantId);
    const updated = await this.endpoints.update(businessId, endpointId, {
      url: changes.url ?? current.url,
      events: changes.events === undefined ? current.events : [...changes.events],
      description: changes.description === undefined ? current.description : changes.description,
      enabled: changes.active ?? current.enabled,
    });
    if (!updated) throw notFound('The webhook endpoint');
    return updated;
  }

  /** The endpoint's attempts of the last 30 days, newest first (docs/design-record.md#d17). */
  async deliveries(businessId: string, endpointId: string, page: PageParams): Promise<Page<EndpointAttempt>> {
    const endpoint = await this.get(businessId, endpointId);
    const since = new Date(this.clock.now().getTime() - NOTICE_RETENTION_MS);
    const scope: CursorScope = { list: 'webhook-deliveries', businessId, filters: { endpointId: endpoint.id } };
    return paginate(this.cursors, scope, page, ({ after, take }) => this.deliveryLog.endpointAttempts(endpoint.id, since, after, take));
  }

  async delete(businessId: string, endpointId: string): Promise<void> {
    const deleted = isUuid(endpointId) && (await this.endpoints.delete(businessId, endpointId));
    if (!deleted) throw notFound('The webhook endpoint');
  }

  /**
   * Gives the endpoint a new secret, answered this once (the endpoint returned carries it). The old one stays valid for 24 hours:
   * until then every notice carries a signature with each. Rotating again within those 24 hours
   * drops the oldest secret.
   */
  async rotateSecret(businessId: string, endpointId: string): Promise<WebhookEndpointEntity> {
    const secret = generateWebhookSecret();
    const previousExpiresAt = new Date(this.clock.now().getTime() + PREVIOUS_SECRET_VALID_MS);
    const rotated = isUuid(endpointId) ? await this.endpoints.rotateSecret(businessId, endpointId, secret, previousExpiresAt) : null;
    if (!rotated) throw notFound('The webhook endpoint');
    return rotated;
  }

  private checkEvents(events: readonly string[]): void {
    const refusal = checkSubscribedTypes(events, this.contract.noticeTypes);
    if (refusal) throw validationFailed([{ path: '/events', message: refusal }]);
  }

  /**
   * The send-time check, run now (https, and a name whose every address is public), so a bad
   * address is refused rather than failing every notice. A name that does not resolve yet is
   * accepted (its DNS may come later): every send checks it anyway.
   */
  private async checkAddress(url: string, tenantId: string): Promise<void> {
    const target = await resolveDeliveryTarget(url, {
      allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE,
      ports: this.config.WEBHOOK_PORTS,
      resolve: (hostname) => this.resolver.resolve(tenantId, hostname, this.limits.connectTimeoutMs),
    });
    if (!target.ok && !target.unresolved) throw new DomainError('WEBHOOK_URL_REFUSED', `The address is refused: ${target.reason}.`);
  }
}
