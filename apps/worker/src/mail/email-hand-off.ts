/**
 * Where the e-mail relay hands outbox rows to, inside the transaction that marks them relayed:
 * the BullMQ `emails` queue in the worker (EmailEnqueuer), or the in-process runner when the API
 * runs without Redis. Handing over an e-mail that is already on its way must be a no-op.
 */
export abstract class EmailHandOff {
  abstract handOff(emailIds: readonly string[]): Promise<void>;
}
