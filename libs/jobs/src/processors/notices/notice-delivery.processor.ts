import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { DeliveryToSend } from '#core/notices/delivery/notice-deliveries.repository.js';
import { DELIVERY_GONE, NoticeDeliveryService } from '#core/notices/delivery/notice-delivery.service.js';
import { NOTICE_SEND_LIMITS, type NoticeSendLimits } from '#core/notices/delivery/notice-sender.js';
import type { ConcurrencyLimiter, LimiterSlot } from '../../concurrency-limiter.js';
import { NOTICE_DELIVERY_CONCURRENCY, SANDBOX_NOTICE_DELIVERY_CONCURRENCY } from '../../job-concurrency.js';
import type { NextStep, QueuedJob } from '../../job-queue.js';
import { JobQueues } from '../../job-queues.js';
import { JobsDriver } from '../../jobs-driver.js';
import type { NoticeDeliveryJobData } from '../../queues.js';
import { noticeDeliveryStep } from './notice-delivery-step.js';

/** Past the sender's own time limit, for the attempt's record: a slot a dead worker held is free after this. */
const SLOT_LEASE_MARGIN_MS = 45_000;

/** The first wait of a delivery whose endpoint or business has every slot taken. */
const FIRST_BUSY_WAIT_MS = 1_000;
/** The longest: by then every slot held when it first looked has been given back (a send lasts at most 15 s). */
const LONGEST_BUSY_WAIT_MS = 16_000;
/** Deliveries whose waits are remembered; past it the memory starts again (a worker restarting forgets them too). */
const REMEMBERED_WAITS = 100_000;

/**
 * How long a delivery whose endpoint or business has every slot taken waits before it looks
 * again: 1 s the first time, doubling each time it finds them taken again, up to 16 s, each
 * spread over half as much again. Looking costs a lookup and a Redis call; a business whose
 * receivers hold every request for 15 s keeps hundreds of deliveries waiting, and waits of a
 * fixed second or two made those looks cost the machine more than the deliveries under way
 * (S9 in docs/performance.md).
 */
export function slotBusyDelayMs(timesBusy: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_BUSY_WAIT_MS, FIRST_BUSY_WAIT_MS * 2 ** Math.max(0, timesBusy - 1));
  return base + Math.floor(random() * (base / 2));
}

/** What a step returns when a slot it needs is taken: the job waits (slotBusyDelayMs) without an attempt. */
const SLOT_BUSY = Symbol('slot busy');

/** Given back without holding the job up: a slot whose release is lost (Redis away) comes back anyway when its lease ends. */
function release(slot: LimiterSlot): void {
  slot.release().catch(() => undefined);
}

/**
 * Delivers change notices, one attempt per run (docs/design-record.md#d9). Every attempt is recorded by the service
 * before noticeDeliveryStep decides what the job does next; a delivery its row does not allow (a
 * secret that cannot be opened) is such an attempt too. An unexpected error (the database away)
 * is thrown: nothing was recorded, and the delivery stays PENDING and due. Nothing a job does is
 * left to reject unobserved: an unhandled rejection would end the process, and every business's
 * notices with it (docs/design-record.md#d24).
 *
 * Fair delivery (docs/design-record.md#d17, #d24): an attempt takes one of its endpoint's
 * WEBHOOK_ENDPOINT_CONCURRENCY slots and one of its business's WEBHOOK_BUSINESS_CONCURRENCY
 * (live and sandbox counted together), both shared by every worker; a sandbox's also takes one of
 * this worker's SANDBOX_NOTICE_DELIVERY_CONCURRENCY. With any of them taken the job waits without an
 * attempt (a second, then longer each time it finds them taken again), and its place among the worker's 20 goes to another notice, so
 * receivers that hold every request for 15 s cannot fill the worker, however many one business has.
 */
@Injectable()
export class NoticeDeliveryProcessor implements OnModuleInit {
  private readonly endpointSlots: ConcurrencyLimiter;
  private readonly businessSlots: ConcurrencyLimiter;
  /** Sandbox deliveries this process runs now: a share of this worker's slots, so counted here and not in Redis. */
  private sandboxRunning = 0;
  /** How many times in a row each waiting delivery (`<noticeId>.<endpointId>`) found its slots taken. */
  private readonly timesBusy = new Map<string, number>();

  constructor(
    private readonly queues: JobQueues,
    private readonly deliveries: NoticeDeliveryService,
    driver: JobsDriver,
    config: AppConfig,
    @Inject(NOTICE_SEND_LIMITS) limits: NoticeSendLimits,
  ) {
    const leaseMs = limits.totalTimeoutMs + SLOT_LEASE_MARGIN_MS;
    this.endpointSlots = driver.limiter({ name: 'notice-endpoint', cap: config.WEBHOOK_ENDPOINT_CONCURRENCY, leaseMs });
    this.businessSlots = driver.limiter({ name: 'notice-business', cap: config.WEBHOOK_BUSINESS_CONCURRENCY, leaseMs });
  }

  onModuleInit(): void {
    this.queues.notices.process((job) => this.process(job), { concurrency: NOTICE_DELIVERY_CONCURRENCY });
  }

  async process(job: QueuedJob<NoticeDeliveryJobData>): Promise<NextStep> {
    const step = await this.step(job);
    const waiting = `${job.data.noticeId}.${job.data.endpointId}`;
    if (step !== SLOT_BUSY) {
      this.timesBusy.delete(waiting);
      return step;
    }
    if (this.timesBusy.size >= REMEMBERED_WAITS) this.timesBusy.clear();
    const times = (this.timesBusy.get(waiting) ?? 0) + 1;
    this.timesBusy.set(waiting, times);
    return { kind: 'later', at: new Date(Date.now() + slotBusyDelayMs(times)) };
  }

  private async step(job: QueuedJob<NoticeDeliveryJobData>): Promise<NextStep | typeof SLOT_BUSY> {
    // The endpoint's slot (Redis) and the delivery (PostgreSQL) are asked for together: one wait
    // instead of two before the send. Both are settled before either is looked at, so a lookup
    // that fails while the slot is on its way is caught here like any other error.
    const [found, endpointSlot] = await Promise.allSettled([
      this.deliveries.find(job.data),
      this.endpointSlots.acquire(job.data.endpointId),
    ]);
    if (endpointSlot.status === 'rejected') throw endpointSlot.reason;
    // Without a slot the lookup is dropped; it was one row of a batch.
    if (endpointSlot.value === null) return SLOT_BUSY;
    try {
      if (found.status === 'rejected') throw found.reason;
      const delivery = found.value;
      if (delivery === null) return noticeDeliveryStep(DELIVERY_GONE, job.data);
      const withoutAttempt = this.deliveries.withoutAttempt(delivery);
      if (withoutAttempt !== null) return noticeDeliveryStep(withoutAttempt, job.data);
      return await this.attemptWithBusinessSlot(delivery, job.data);
    } finally {
      release(endpointSlot.value);
    }
  }

  /** The attempt, once its business has a slot free (and, for a sandbox's, this worker has room for one more). */
  private async attemptWithBusinessSlot(delivery: DeliveryToSend, ref: NoticeDeliveryJobData): Promise<NextStep | typeof SLOT_BUSY> {
    // Counted before the wait on Redis, so that two sandbox deliveries never both take the last place.
    if (delivery.sandbox) {
      if (this.sandboxRunning >= SANDBOX_NOTICE_DELIVERY_CONCURRENCY) return SLOT_BUSY;
      this.sandboxRunning += 1;
    }
    try {
      const businessSlot = await this.businessSlots.acquire(delivery.liveBusinessId);
      if (businessSlot === null) return SLOT_BUSY;
      try {
        return noticeDeliveryStep(await this.deliveries.attempt(delivery), ref);
      } finally {
        release(businessSlot);
      }
    } finally {
      if (delivery.sandbox) this.sandboxRunning -= 1;
    }
  }
}
