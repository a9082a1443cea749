import type { DeliveryRef } from '#core/webhooks/notice-deliveries.repository.js';

/**
 * Where the relay and the sweep hand committed deliveries to: the BullMQ queue in the worker
 * (NoticeEnqueuer), or the in-process runner when the API runs without Redis. Handing over a
 * delivery that is already queued, waiting for a retry or running must be a no-op, because the
 * sweep hands over every due delivery again.
 */
export abstract class NoticeHandOff {
  abstract handOff(deliveries: readonly DeliveryRef[]): Promise<void>;
}
