import type { DeliveryRef } from '#core/notices/delivery/notice-deliveries.repository.js';
import type { JobToAdd } from '../../job-queue.js';
import { NoticeJob, noticeDeliveryJobId, type NoticeDeliveryJobData } from '../../queues.js';

/**
 * The jobs of committed deliveries, under their deterministic ids: handing over a delivery that
 * is already queued, waiting for a retry or running is a no-op, which the sweep relies on.
 */
export function noticeDeliveryJobs(deliveries: readonly DeliveryRef[]): JobToAdd<NoticeDeliveryJobData>[] {
  return deliveries.map(({ businessId, noticeId, endpointId }) => ({
    id: noticeDeliveryJobId(noticeId, endpointId),
    name: NoticeJob.Deliver,
    data: { businessId, noticeId, endpointId },
  }));
}
