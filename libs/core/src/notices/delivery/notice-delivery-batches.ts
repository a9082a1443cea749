import { Injectable } from '@nestjs/common';
import { RoundTripBatcher } from '../../batching/round-trip-batcher.js';
import { NoticeDeliveriesRepository, type DeliveredRecord, type DeliveryRef, type DeliveryToSend } from './notice-deliveries.repository.js';

/**
 * Most deliveries looked up or recorded in one statement. Far above what one process has under
 * way (its delivery concurrency), so in practice a batch is whatever came in meanwhile.
 */
const MAX_BATCH = 200;

/**
 * The two statements every delivery makes, looking it up before the send and recording its
 * success after, shared between the deliveries under way: each waits at most for the round trip
 * already in flight, and a busy worker pays a few statements per batch instead of two per
 * delivery. The lookup is a read that never waits on a lock, so one in flight is enough; a record
 * commits (a WAL flush) and may wait on an endpoint row another transaction holds, so two may be
 * in flight and one slow record does not hold up every delivery behind it. At most three of the
 * pool's connections go to this.
 */
@Injectable()
export class NoticeDeliveryBatches {
  private readonly lookups: RoundTripBatcher<DeliveryRef, DeliveryToSend | null>;
  private readonly successes: RoundTripBatcher<DeliveredRecord, undefined>;

  constructor(deliveries: NoticeDeliveriesRepository) {
    this.lookups = new RoundTripBatcher((refs) => deliveries.findManyForSending(refs), { maxBatch: MAX_BATCH, maxInFlight: 1 });
    this.successes = new RoundTripBatcher(
      async (records) => {
        await deliveries.recordManyDelivered(records);
        return records.map(() => undefined);
      },
      { maxBatch: MAX_BATCH, maxInFlight: 2 },
    );
  }

  findForSending(ref: DeliveryRef): Promise<DeliveryToSend | null> {
    return this.lookups.call(ref);
  }

  recordDelivered(record: DeliveredRecord): Promise<void> {
    return this.successes.call(record);
  }
}
