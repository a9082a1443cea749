import type { DeliveredNotice } from '../outbox/notice-body.js';

/** How a notice's deliveries stand, one per endpoint it went to. */
export interface DeliveryCounts {
  pending: number;
  delivered: number;
  failed: number;
}

/** A notice of the event log (docs/design-record.md#d18): the body as delivered, then its deliveries. */
export type EventView = DeliveredNotice & { deliveries: DeliveryCounts };
