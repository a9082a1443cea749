import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '#database/entities/notice-delivery.entity.js';
import { notFound, validationFailed, type FieldError } from '../../errors/domain-error.js';
import { isUuid } from '../../ids/uuid.js';
import { SWEEP_PAYLOAD } from '../outbox/notice-channel.js';
import { NoticesRepository } from '../outbox/notices.repository.js';
import { NoticeDeliveriesRepository, type DeliveryListItem } from './notice-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository.js';
import { TEST_NOTICE_TYPE } from '../endpoints/webhook-test-ping.service.js';

const MAX_LISTED = 1000;

export interface DeliveriesQuery {
  status?: string;
  noticeId?: string;
  limit?: number;
}

/**
 * Where a notice is sent again. `endpoints-it-went-to`: its finished (DELIVERED or FAILED)
 * deliveries, whatever the endpoints subscribe to now (`admin webhook replay`). `subscribed`:
 * every active endpoint subscribed to its type now. `endpoint`: that active endpoint, subscribed
 * or not (the last two: `POST /events/{id}/redeliver`).
 */
export type SendAgainTo = { to: 'endpoints-it-went-to' } | { to: 'subscribed' } | { to: 'endpoint'; endpointId: string };

export interface SentAgain {
  noticeId: string;
  /** Whether the relay has handed the notice out yet; until it has, the relay makes its deliveries. */
  relayed: boolean;
  /** Every endpoint it goes to: queued now, or (named or subscribed) already on its way. */
  endpointIds: string[];
  /** The endpoints whose delivery was queued now; one still PENDING is already on its way. */
  queued: string[];
}

function isDeliveryStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** What was delivered of a business's notices, and sending one again: the one way both are done, by the API and the admin command line. */
@Injectable()
export class NoticeDeliveriesService {
  constructor(
    private readonly database: Database,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly notices: NoticesRepository,
  ) {}

  /** The business's deliveries, newest first, each with its last attempt. */
  async list(businessId: string, query: DeliveriesQuery): Promise<DeliveryListItem[]> {
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
    return this.deliveries.list(businessId, {
      status: status !== undefined && isDeliveryStatus(status) ? status : undefined,
      noticeId,
      limit,
    });
  }

  /**
   * Sends a notice again, with the same notice id (receivers deduplicate on it): the deliveries
   * are queued (back to PENDING, with a fresh schedule) in one transaction, and the worker is told
   * to send them at once. A delivery still PENDING is already on its way and is left to run.
   */
  async sendAgain(businessId: string, noticeId: string, where: SendAgainTo): Promise<SentAgain> {
    const notice = isUuid(noticeId) ? await this.notices.findById(businessId, noticeId) : null;
    // A test ping is kept in the delivery log only (docs/design-record.md#d23): it is never sent again.
    if (!notice || notice.type === TEST_NOTICE_TYPE) throw notFound('The notice');
    const targets = where.to === 'endpoints-it-went-to' ? null : await this.targetsOf(businessId, notice.type, where);
    const queued = await this.database.transactional(async () => {
      const refs =
        targets === null
          ? await this.deliveries.requeue(businessId, notice.id)
          : await this.deliveries.redeliver(businessId, notice.id, targets);
      if (refs.length > 0) await this.notices.notifyWorker(SWEEP_PAYLOAD);
      return refs.map((ref) => ref.endpointId);
    });
    return { noticeId: notice.id, relayed: notice.relayedAt !== null, endpointIds: targets ?? queued, queued };
  }

  private async targetsOf(
    businessId: string,
    type: string,
    where: Exclude<SendAgainTo, { to: 'endpoints-it-went-to' }>,
  ): Promise<string[]> {
    if (where.to === 'subscribed') return this.endpoints.activeSubscribedTo(businessId, type);
    const endpoint = isUuid(where.endpointId) ? await this.endpoints.findById(businessId, where.endpointId) : null;
    if (!endpoint) throw notFound('The webhook endpoint');
    if (!endpoint.enabled) {
      throw validationFailed([
        { path: '/endpointId', message: 'names an endpoint that is not active; enable it first (PATCH { "active": true })' },
      ]);
    }
    return [endpoint.id];
  }
}
