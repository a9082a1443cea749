// What S6's bare BullMQ workers (bare-bullmq-worker.ts, bare-bullmq-recording-worker.ts) and the
// scenario that feeds them share.

/** What each job carries: the stored body and its endpoint's secret, so the processor needs nothing else. */
export interface BareJobData {
  id: string;
  url: string;
  body: string;
  secrets: string[];
}

/**
 * What the recording floor's jobs carry besides: the values of the attempt row that the worker
 * reads from its delivery (the floor has no deliveries; the scenario makes them up).
 */
export interface RecordingJobData extends BareJobData {
  deliveryId: string;
  endpointId: string;
  /** Which attempt of its delivery this is, from 1. */
  attempt: number;
  /** The endpoint's version, kept on the attempt as the worker keeps it (docs/design-record.md#d22). */
  apiVersion: string;
}

/** Where the bare workers' jobs live: queues of their own, under a prefix of their own within the run's (which the bench clears). */
export const BARE_QUEUE = 'bare-notices';
export const RECORDING_QUEUE = 'bare-recorded-notices';
export const barePrefix = (runName: string): string => `${runName}:bare`;

/** The recording floor's attempt log: made by the scenario in the run database like delivery_attempts. */
export const FLOOR_ATTEMPTS_TABLE = 'bench_floor_attempts';
