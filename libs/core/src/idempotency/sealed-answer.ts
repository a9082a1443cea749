import type { SecretsCipher } from '../secrets/secrets-cipher.js';

/** Whose stored answer it is: the API key and the Idempotency-Key it was stored under. */
export interface AnswerOwner {
  apiKeyId: string;
  idempotencyKey: string;
}

/**
 * The additional data an answer is sealed with: it opens only as the answer stored for the same
 * key and Idempotency-Key, so a sealed body copied onto another record does not open.
 */
export function answerSealingId(owner: AnswerOwner): string {
  return `idempotency:${owner.apiKeyId}:${owner.idempotencyKey}`;
}

/**
 * The body of an idempotent answer as it is stored (docs/design-record.md#d25): sealed with the
 * cipher of webhook secrets when the answer holds a secret (its operation's answer schema has a
 * `secret`, libs/contract/src/secret-answers.ts), so it is no more readable at rest for its 24
 * hours than the endpoint's own secret; as it is otherwise.
 */
export function sealAnswer(cipher: SecretsCipher, request: AnswerOwner & { answerHoldsSecret?: boolean }, body: string): string {
  return request.answerHoldsSecret === true ? cipher.seal(body, answerSealingId(request)) : body;
}

/** The body to replay: a sealed one opened (the cipher tells a sealed value by its form), another as it is. */
export function openAnswer(cipher: SecretsCipher, owner: AnswerOwner, stored: string): string {
  return cipher.open(stored, answerSealingId(owner));
}
