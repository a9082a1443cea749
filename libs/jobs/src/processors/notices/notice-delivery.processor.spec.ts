import { randomUUID } from 'node:crypto';
import type { AppConfig } from '#config/app-config.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import type { DeliveryRef, DeliveryToSend } from '#core/notices/delivery/notice-deliveries.repository.js';
import type { DeliveryOutcome, NoticeDeliveryService } from '#core/notices/delivery/notice-delivery.service.js';
import { NOTICE_SEND_LIMITS_D9 } from '#core/notices/delivery/notice-sender.js';
import type { ConcurrencyLimiter, LimiterOptions } from '../../concurrency-limiter.js';
import { InMemoryDriver } from '../../drivers/in-memory/in-memory-driver.js';
import type { JobQueues } from '../../job-queues.js';
import type { NextStep, QueuedJob } from '../../job-queue.js';
import type { NoticeDeliveryJobData } from '../../queues.js';
import { NoticeDeliveryProcessor, slotBusyDelayMs } from './notice-delivery.processor.js';

/**
 * The processor's slots (docs/design-record.md#d24) on the in-memory driver's limiters, with the
 * delivery service replaced by one whose attempts last until the test ends them: what is counted is
 * how many attempts are under way at once, never how long anything takes.
 */
const settings = { WEBHOOK_ENDPOINT_CONCURRENCY: 4, WEBHOOK_BUSINESS_CONCURRENCY: 8 };

const refKey = ({ noticeId, endpointId }: DeliveryRef) => `${noticeId}.${endpointId}`;

interface TestJob {
  delivery: DeliveryToSend;
  queued(): QueuedJob<NoticeDeliveryJobData>;
}

/** A live business, or a sandbox (counted under its live business's id). */
class TestBusiness {
  private constructor(
    readonly liveId: string,
    readonly id: string,
    readonly sandbox: boolean,
  ) {}

  static live(): TestBusiness {
    const id = randomUUID();
    return new TestBusiness(id, id, false);
  }

  sandboxOf(): TestBusiness {
    return new TestBusiness(this.liveId, randomUUID(), true);
  }

  /** A delivery of a notice of this business's, to a new endpoint of its unless named, stored in `deliveries`. */
  job(deliveries: HeldDeliveries, endpointId: string = randomUUID(), status: DeliveryToSend['status'] = 'PENDING'): TestJob {
    const delivery: DeliveryToSend = {
      id: randomUUID(),
      businessId: this.id,
      noticeId: randomUUID(),
      endpointId,
      status,
      attempts: 0,
      nextAttemptAt: null,
      payload: {},
      liveBusinessId: this.liveId,
      sandbox: this.sandbox,
      endpoint: {
        url: 'https://receiver.example/hook',
        sealedSecret: 'whsec_c2VjcmV0',
        sealedPreviousSecret: null,
        previousSecretExpiresAt: null,
        enabled: true,
        disabledReason: null,
        apiVersion: CURRENT_API_VERSION,
      },
    };
    deliveries.rows.set(refKey(delivery), delivery);
    const data = { businessId: this.id, noticeId: delivery.noticeId, endpointId };
    return { delivery, queued: () => ({ id: refKey(delivery), name: 'deliver-notice', data, attemptsMade: 0 }) };
  }
}

/**
 * A promise that rejects at once, and whether a handler was on it by the end of the turn: what
 * Node looks at to call a rejection unhandled, and end the process (the test runner's own
 * promises are not watched that way, so the test checks the rule itself).
 */
function observedRejection(error: Error): { promise: Promise<never>; observedInTime: Promise<boolean> } {
  let observed = false;
  class Watched<T> extends Promise<T> {
    override then<A = T, B = never>(
      onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
      onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ): Promise<A | B> {
      observed = true;
      return super.then(onFulfilled, onRejected);
    }
  }
  const promise = Watched.reject<never>(error);
  return { promise, observedInTime: new Promise((resolve) => setImmediate(() => resolve(observed))) };
}

/** Deliveries by ref, attempts that last until `finish`, and how many ran at once. */
class HeldDeliveries {
  readonly rows = new Map<string, DeliveryToSend>();
  readonly underWay = new Map<string, { delivery: DeliveryToSend; end: (outcome: DeliveryOutcome | Error) => void }>();
  /** Set: lookups fail at once, each with whether anyone was waiting for it when the turn ended. */
  lookupFailure: Error | null = null;
  readonly failedLookups: Promise<boolean>[] = [];

  find = (ref: DeliveryRef): Promise<DeliveryToSend | null> => {
    if (!this.lookupFailure) return Promise.resolve(this.rows.get(refKey(ref)) ?? null);
    const lookup = observedRejection(this.lookupFailure);
    this.failedLookups.push(lookup.observedInTime);
    return lookup.promise;
  };

  withoutAttempt = (delivery: DeliveryToSend): DeliveryOutcome | null =>
    delivery.status === 'PENDING' ? null : { kind: 'skipped', reason: `the delivery is ${delivery.status}` };

  attempt = (delivery: DeliveryToSend): Promise<DeliveryOutcome> =>
    new Promise((resolve, reject) => {
      this.underWay.set(delivery.id, {
        delivery,
        end: (outcome) => {
          this.underWay.delete(delivery.id);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      });
    });

  /** Attempts under way now whose delivery matches. */
  count(match: (delivery: DeliveryToSend) => boolean = () => true): number {
    return [...this.underWay.values()].filter(({ delivery }) => match(delivery)).length;
  }

  finish(deliveryId: string, outcome: DeliveryOutcome | Error = { kind: 'delivered', statusCode: 200 }): void {
    this.underWay.get(deliveryId)!.end(outcome);
  }
}

function processorOn(deliveries: HeldDeliveries, driver = new InMemoryDriver(), overrides: Partial<typeof settings> = {}) {
  return new NoticeDeliveryProcessor(
    {} as JobQueues,
    deliveries as unknown as NoticeDeliveryService,
    driver,
    { ...settings, ...overrides } as AppConfig,
    NOTICE_SEND_LIMITS_D9,
  );
}

/** Lets every job that is not held in an attempt come to its end (the in-memory limiters answer at once). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs the jobs, and reports which ended (with what) and which are still in their attempt. */
async function runAll(processor: NoticeDeliveryProcessor, jobs: TestJob[]) {
  const ended = new Map<string, NextStep>();
  const runs = jobs.map((job) => processor.process(job.queued()).then((step) => ended.set(job.delivery.id, step)));
  await settle();
  return { ended, runs };
}

const postponed = (step: NextStep | undefined) => step?.kind === 'later';

describe('NoticeDeliveryProcessor slots', () => {
  it('runs at most WEBHOOK_BUSINESS_CONCURRENCY deliveries of one business at once, whatever the number of its endpoints', async () => {
    const deliveries = new HeldDeliveries();
    const hostile = TestBusiness.live();
    const victim = TestBusiness.live();
    const busyEndpoint = randomUUID();
    const processor = processorOn(deliveries);

    // Six to one endpoint (its own cap of 4 still holds), then one to each of eight more endpoints.
    const { ended } = await runAll(processor, [
      ...Array.from({ length: 6 }, () => hostile.job(deliveries, busyEndpoint)),
      ...Array.from({ length: 8 }, () => hostile.job(deliveries)),
    ]);
    expect(deliveries.count()).toBe(8);
    expect(deliveries.count((delivery) => delivery.endpointId === busyEndpoint)).toBe(4);
    expect([...ended.values()].filter(postponed)).toHaveLength(6);

    // Another business's delivery goes at once; one of the hostile's that is finished or gone
    // takes no slot and is not postponed: it ends.
    const finished = hostile.job(deliveries, randomUUID(), 'DELIVERED');
    const gone = hostile.job(deliveries);
    deliveries.rows.delete(refKey(gone.delivery));
    const later = await runAll(processor, [victim.job(deliveries), finished, gone]);
    expect(deliveries.count((delivery) => delivery.liveBusinessId === victim.liveId)).toBe(1);
    expect(later.ended.get(finished.delivery.id)).toEqual({
      kind: 'done',
      result: { kind: 'skipped', reason: 'the delivery is DELIVERED' },
    });
    expect(later.ended.get(gone.delivery.id)).toEqual({
      kind: 'done',
      result: { kind: 'skipped', reason: 'the delivery no longer exists' },
    });
  });

  it('counts a business and its sandbox together', async () => {
    const deliveries = new HeldDeliveries();
    const business = TestBusiness.live();
    const sandbox = business.sandboxOf();
    const processor = processorOn(deliveries);

    await runAll(processor, [
      ...Array.from({ length: 6 }, () => business.job(deliveries)),
      ...Array.from({ length: 4 }, () => sandbox.job(deliveries)),
    ]);
    expect(deliveries.count()).toBe(8);
    expect(deliveries.count((delivery) => delivery.sandbox)).toBe(2);
  });

  it('gives sandboxes at most a quarter of the worker’s slots, however many sandboxes send', async () => {
    const deliveries = new HeldDeliveries();
    const sandboxes = Array.from({ length: 7 }, () => TestBusiness.live().sandboxOf());
    const processor = processorOn(deliveries);

    const { ended } = await runAll(
      processor,
      sandboxes.map((sandbox) => sandbox.job(deliveries)),
    );
    expect(deliveries.count()).toBe(5);
    expect([...ended.values()].filter(postponed)).toHaveLength(2);

    // Live notices still go; and once a sandbox's attempt ends, another sandbox's may start.
    await runAll(processor, [TestBusiness.live().job(deliveries)]);
    expect(deliveries.count((delivery) => !delivery.sandbox)).toBe(1);
    deliveries.finish([...deliveries.underWay.values()].find(({ delivery }) => delivery.sandbox)!.delivery.id);
    await runAll(processor, [sandboxes[6].job(deliveries)]);
    expect(deliveries.count((delivery) => delivery.sandbox)).toBe(5);
  });

  it('holds no slot while a refused delivery waits, and gets every slot back from an attempt that throws', async () => {
    const deliveries = new HeldDeliveries();
    const business = TestBusiness.live();
    const processor = processorOn(deliveries, new InMemoryDriver(), { WEBHOOK_ENDPOINT_CONCURRENCY: 1 });
    const held = Array.from({ length: 8 }, () => business.job(deliveries));
    const refused = business.job(deliveries);

    const first = await runAll(processor, held);
    const { ended } = await runAll(processor, [refused]);
    expect(postponed(ended.get(refused.delivery.id))).toBe(true);

    // An unexpected error (the database away) in one of the eight: its business slot comes back,
    // and the refused delivery's endpoint slot was never kept, so it goes now.
    deliveries.finish(held[0].delivery.id, new Error('the database is away'));
    await expect(first.runs[0]).rejects.toThrow('the database is away');
    await runAll(processor, [refused]);
    expect(deliveries.underWay.has(refused.delivery.id)).toBe(true);
  });
});

describe('NoticeDeliveryProcessor and a lookup that fails', () => {
  /** Limiters whose slots come a few milliseconds late, as Redis's do, after the lookup has failed. */
  class SlowSlotsDriver extends InMemoryDriver {
    override limiter(options: LimiterOptions): ConcurrencyLimiter {
      const slots = super.limiter(options);
      return {
        acquire: async (key) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return slots.acquire(key);
        },
      };
    }
  }

  it('leaves no rejection unhandled (it would end the worker), fails the job, and gives the endpoint’s slot back', async () => {
    const deliveries = new HeldDeliveries();
    const business = TestBusiness.live();
    const endpointId = randomUUID();
    const processor = processorOn(deliveries, new SlowSlotsDriver(), { WEBHOOK_ENDPOINT_CONCURRENCY: 1 });
    deliveries.lookupFailure = new Error('the database is away');
    await expect(processor.process(business.job(deliveries, endpointId).queued())).rejects.toThrow('the database is away');
    expect(await Promise.all(deliveries.failedLookups)).toEqual([true]);

    deliveries.lookupFailure = null;
    const next = business.job(deliveries, endpointId);
    let step: NextStep | undefined;
    const run = processor.process(next.queued()).then((ended) => (step = ended));
    while (step === undefined && !deliveries.underWay.has(next.delivery.id)) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(step).toBeUndefined();
    deliveries.finish(next.delivery.id);
    await expect(run).resolves.toMatchObject({ kind: 'done' });
  });
});

describe('slotBusyDelayMs', () => {
  it('waits a second at first, then doubles up to 16 s, spread over half as much again', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map((times) => slotBusyDelayMs(times, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000,
    ]);
    expect(slotBusyDelayMs(1, () => 0.999)).toBe(1_499);
    expect(slotBusyDelayMs(9, () => 0.999)).toBe(23_992);
  });
});
