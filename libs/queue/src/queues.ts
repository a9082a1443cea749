/** Queue and job names shared by the processes that add jobs and the worker that runs them. */
export const MAINTENANCE_QUEUE = 'maintenance';

export const MaintenanceJob = {
  /** Deletes idempotency records past their 24-hour retention (D4). */
  PurgeIdempotencyRecords: 'purge-idempotency-records',
} as const;
export type MaintenanceJobName = (typeof MaintenanceJob)[keyof typeof MaintenanceJob];

/** How often maintenance jobs run. */
export const PURGE_IDEMPOTENCY_EVERY_MS = 15 * 60 * 1000;
