import { DomainError } from '#core/errors/domain-error.js';
import { loadContract, resolveRef } from '#contract/openapi-document.js';
import type { ApiRequest } from './api-request.js';
import { headerOccurrences } from './header-occurrences.js';

const HEADER = 'idempotency-key';
const { pattern } = resolveRef<{ schema: { pattern: string } }>(loadContract().document, {
  $ref: '#/components/parameters/IdempotencyKey',
}).schema;
/** The contract's pattern for the header: one copy of the rule. */
const KEY_PATTERN = new RegExp(pattern);

/**
 * The request's Idempotency-Key (docs/design-record.md#d4): required, sent once, one pair of surrounding quotes
 * allowed (as the IETF draft writes it), then the contract's pattern. Where the operation makes it
 * optional (PATCH /appointments/{id}, docs/design-record.md#d23), its absence is null; sent, the same rules hold.
 */
export function readIdempotencyKey(req: ApiRequest): string;
export function readIdempotencyKey(req: ApiRequest, required: boolean): string | null;
export function readIdempotencyKey(req: ApiRequest, required = true): string | null {
  const occurrences = headerOccurrences(req, HEADER);
  const raw = req.headers[HEADER];
  if (!required && occurrences === 0) return null;
  if (occurrences !== 1 || typeof raw !== 'string') {
    throw new DomainError(
      'IDEMPOTENCY_KEY_INVALID',
      occurrences > 1 ? 'Send the Idempotency-Key header once.' : 'This operation requires an Idempotency-Key header.',
    );
  }
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY_PATTERN.test(value)) {
    throw new DomainError(
      'IDEMPOTENCY_KEY_INVALID',
      'The Idempotency-Key must be 8 to 255 characters of letters, digits and _ - : . (a UUID works).',
    );
  }
  return value;
}
