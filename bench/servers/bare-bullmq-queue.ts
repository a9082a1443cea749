// What the bare BullMQ worker of S6 (bare-bullmq-worker.ts) and the scenario that feeds it share.

/** What each job carries: the stored body and its endpoint's secret, so the processor needs nothing else. */
export interface BareJobData {
  id: string;
  url: string;
  body: string;
  secrets: string[];
}

/** Where the bare worker's jobs live: its own queue, under a prefix of its own within the run's (which the bench clears). */
export const BARE_QUEUE = 'bare-notices';
export const barePrefix = (runName: string): string => `${runName}:bare`;
