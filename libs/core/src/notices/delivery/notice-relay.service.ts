import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { AppointmentEmailOutboxService } from '../../mail/appointment-email-outbox.service.js';
import { NoticesRepository } from '../outbox/notices.repository.js';
import { NoticeDeliveriesRepository, type DeliveryRef, type NewDelivery } from './notice-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository.js';

export interface RelayedBatch {
  /** Notices taken out of the outbox. */
  notices: number;
  /** Deliveries created for them, to be queued. */
  deliveries: DeliveryRef[];
  /** E-mails written for them, for the e-mail relay to queue. */
  emails: number;
}

/**
 * The outbox side of the relay: turns recorded notices into deliveries, one per subscribed
 * endpoint, and an appointment change's notice into its e-mails (docs/design-record.md#write-path).
 */
@Injectable()
export class NoticeRelayService {
  constructor(
    private readonly database: Database,
    private readonly notices: NoticesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: NoticeDeliveriesRepository,
    private readonly emails: AppointmentEmailOutboxService,
  ) {}

  /**
   * In one transaction: claims up to `limit` unrelayed notices (other relays skip them), creates a
   * PENDING delivery, due now, for each ENABLED endpoint of the notice's business subscribed to
   * its type, writes the e-mails the notices name, and marks the notices relayed. Either all of
   * that commits or none of it. A notice recorded before the one outbox names no e-mails: its
   * own were written with it, and the e-mail relay sends them as it always did. The caller
   * queues the returned deliveries after the commit; if it crashes first, they stay PENDING and
   * due, and the sweep queues them.
   */
  async relayBatch(limit: number): Promise<RelayedBatch> {
    return this.database.transactional(async () => {
      const claimed = await this.notices.claimUnrelayed(limit);
      if (claimed.length === 0) return { notices: 0, deliveries: [], emails: 0 };
      const businessIds = [...new Set(claimed.map((notice) => notice.businessId))];
      const endpoints = await this.endpoints.findEnabledOfBusinesses(businessIds);
      const now = new Date();
      const rows = claimed.flatMap((notice) =>
        endpoints
          .filter((endpoint) => endpoint.businessId === notice.businessId && endpoint.events.includes(notice.type))
          .map((endpoint): NewDelivery => ({
            id: newId(),
            businessId: notice.businessId,
            noticeId: notice.id,
            endpointId: endpoint.id,
            status: 'PENDING',
            attempts: 0,
            nextAttemptAt: now,
            deliveredAt: null,
            createdAt: now,
            updatedAt: now,
          })),
      );
      const deliveries = await this.deliveries.insertMany(rows);
      const emails = await this.emails.writeFor(
        claimed.flatMap((notice) => (notice.emails ? [{ appointmentId: notice.subjectId, emails: notice.emails }] : [])),
      );
      await this.notices.markRelayed(claimed.map((notice) => notice.id));
      return { notices: claimed.length, deliveries, emails };
    });
  }
}
