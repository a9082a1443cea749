/** Deliveries one process runs at once, whichever driver runs them (each waits at most 15 s on its receiver). */
export const NOTICE_DELIVERY_CONCURRENCY = 20;

/** E-mails one process sends at once, whichever driver runs them. */
export const EMAIL_SEND_CONCURRENCY = 5;
