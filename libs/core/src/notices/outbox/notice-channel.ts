/**
 * The PostgreSQL channel the worker LISTENs on: a notice recorded in a transaction NOTIFYs it at
 * commit (so the relay wakes at once instead of at its next poll), and a replay NOTIFYs it with
 * SWEEP_PAYLOAD (so the worker re-queues the replayed deliveries at once).
 */
export const NOTICE_CHANNEL = 'notice_outbox';
export const SWEEP_PAYLOAD = 'sweep';

/**
 * Notices are kept this long, then purged with their deliveries and attempts, as are sent e-mails
 * (docs/design-record.md#d18); the event log and the delivery log show no more than this.
 */
export const NOTICE_RETENTION_DAYS = 30;
export const NOTICE_RETENTION_MS = NOTICE_RETENTION_DAYS * 24 * 60 * 60 * 1000;
