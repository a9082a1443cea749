/** Deliveries one process runs at once, queued or in-process (each waits at most 15 s on its receiver). */
export const NOTICE_DELIVERY_CONCURRENCY = 20;

/** E-mails one process sends at once, queued or in-process. */
export const EMAIL_SEND_CONCURRENCY = 5;
