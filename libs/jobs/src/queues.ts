/** Queue and job names shared by the processes that add jobs and the worker that runs them. */
export const MAINTENANCE_QUEUE = 'maintenance';

export const MaintenanceJob = {
  /** Deletes idempotency records past their 24-hour retention (docs/design-record.md#d4). */
  PurgeIdempotencyRecords: 'purge-idempotency-records',
  /** Deletes change notices past their 30-day retention, with their deliveries and attempts (docs/design-record.md#d9). */
  PurgeNotices: 'purge-notices',
  /** Deletes e-mails past the same 30 days (docs/design-record.md#d18). */
  PurgeEmails: 'purge-emails',
  /** Deletes the owner console's sessions and sign-in links past their end (docs/design-record.md#d26). */
  PurgeConsoleSignIns: 'purge-console-sign-ins',
  /** Ends the OAuth grants whose tokens can no longer be used (docs/design-record.md#d30). */
  EndUnusableGrants: 'end-unusable-oauth-grants',
} as const;
export type MaintenanceJobName = (typeof MaintenanceJob)[keyof typeof MaintenanceJob];

/** Maintenance jobs carry nothing: the job's name says what to do. */
export type MaintenanceJobData = Record<string, never>;

/** How often maintenance jobs run. */
export const PURGE_IDEMPOTENCY_EVERY_MS = 15 * 60 * 1000;
export const PURGE_NOTICES_EVERY_MS = 60 * 60 * 1000;

/** Change notices on their way to the business's endpoints (docs/design-record.md#d9): one job per notice and endpoint. */
export const NOTICES_QUEUE = 'notices';

export const NoticeJob = {
  /** One attempt at POSTing a notice to one endpoint; a failed attempt reschedules the same job. */
  Deliver: 'deliver-notice',
} as const;
export type NoticeJobName = (typeof NoticeJob)[keyof typeof NoticeJob];

export interface NoticeDeliveryJobData {
  businessId: string;
  noticeId: string;
  endpointId: string;
}

/**
 * docs/design-record.md#d9's "job id = notice id", for a notice that goes to several endpoints: `<noticeId>.<endpointId>`.
 * Deterministic, so adding the job again (relay retried, sweep, replay) is a no-op while it is
 * queued; '.' because BullMQ refuses ':' in custom job ids.
 */
export function noticeDeliveryJobId(noticeId: string, endpointId: string): string {
  return `${noticeId}.${endpointId}`;
}

/** Outbound e-mails (docs/design-record.md#d10): one job per outbound_emails row, whose id is the job id. */
export const EMAILS_QUEUE = 'emails';

export const EmailJob = {
  /** Sends one queued e-mail; a failure is retried on the e-mail schedule (email-retry.ts). */
  Send: 'send-email',
} as const;
export type EmailJobName = (typeof EmailJob)[keyof typeof EmailJob];

export interface SendEmailJobData {
  emailId: string;
}

export type QueueName = typeof MAINTENANCE_QUEUE | typeof NOTICES_QUEUE | typeof EMAILS_QUEUE;

/** Every queue of the service, in the order the metrics and the dashboard list them. */
export const QUEUE_NAMES: readonly QueueName[] = [NOTICES_QUEUE, EMAILS_QUEUE, MAINTENANCE_QUEUE];
