/** The largest request body read (JsonBodyGuard in the API); a larger one is refused by the input check. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Far deeper than any body of the contract (2 levels: a booking and its client); deeper ones would overflow recursive code. */
export const MAX_BODY_DEPTH = 32;
