/** Deliveries one process runs at once, whichever driver runs them (each waits at most 15 s on its receiver). */
export const NOTICE_DELIVERY_CONCURRENCY = 20;

/**
 * Of those, the most that sandboxes' notices take at once (docs/design-record.md#d24): a quarter,
 * so test mode never holds up live notices however many sandboxes send.
 */
export const SANDBOX_NOTICE_DELIVERY_CONCURRENCY = NOTICE_DELIVERY_CONCURRENCY / 4;

/** E-mails one process sends at once, whichever driver runs them. */
export const EMAIL_SEND_CONCURRENCY = 5;
