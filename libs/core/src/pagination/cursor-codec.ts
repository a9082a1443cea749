import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors/domain-error.js';
import type { KeysetPosition } from './keyset-position.js';

/** The contract's limit on a cursor's length; what this codec writes is far shorter (55 characters). */
export const CURSOR_MAX_LENGTH = 200;

/** What a cursor is valid for: one list, one business, one set of filters. */
export interface CursorScope {
  list: 'appointments' | 'clients' | 'payments' | 'sales' | 'staff' | 'events' | 'webhook-deliveries';
  businessId: string;
  /** Every filter of the query, in a canonical form, null when absent. */
  filters: Readonly<Record<string, string | null>>;
}

const VERSION = 1;
// version (1 byte) + microseconds (signed 64-bit) + UUID (16 bytes).
const BODY_BYTES = 1 + 8 + 16;
// 128 bits of HMAC-SHA256: forging one is as hard as guessing a random 128-bit value.
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UUID_HEX = /^[0-9a-f]{32}$/;

export const cursorInvalid = (): DomainError =>
  new DomainError('CURSOR_INVALID', 'The cursor is invalid or was issued for other filters.', [
    { path: '/query/cursor', message: 'is not a cursor this service issued for this business and these filters' },
  ]);

/**
 * Opaque list cursors (docs/design-record.md#d5): base64url of the position, followed by an HMAC over the position and
 * its scope. The scope itself is not carried: a cursor presented with another list, business or
 * filters simply fails the HMAC, so it cannot be altered, moved or reused elsewhere.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(scope: CursorScope, position: KeysetPosition): string {
    const hex = position.id.replace(/-/g, '').toLowerCase();
    if (!UUID_HEX.test(hex)) throw new Error(`A keyset position needs a UUID id, not ${position.id}`);
    const body = Buffer.alloc(BODY_BYTES);
    body.writeUInt8(VERSION, 0);
    body.writeBigInt64BE(position.micros, 1);
    body.write(hex, 9, 'hex');
    return Buffer.concat([body, this.tag(scope, body)]).toString('base64url');
  }

  /** The position a cursor carries; CURSOR_INVALID for anything this codec did not write for this scope. */
  decode(scope: CursorScope, cursor: string): KeysetPosition {
    if (cursor.length > CURSOR_MAX_LENGTH || !BASE64URL.test(cursor)) throw cursorInvalid();
    const bytes = Buffer.from(cursor, 'base64url');
    // Re-encoding must give the text back: Node's decoder ignores stray bits in the last character.
    if (bytes.length !== BODY_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor) throw cursorInvalid();
    const body = bytes.subarray(0, BODY_BYTES);
    if (!timingSafeEqual(bytes.subarray(BODY_BYTES), this.tag(scope, body))) throw cursorInvalid();
    if (body.readUInt8(0) !== VERSION) throw cursorInvalid();
    const hex = body.subarray(9).toString('hex');
    return {
      micros: body.readBigInt64BE(1),
      id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    };
  }

  private tag(scope: CursorScope, body: Buffer): Buffer {
    const filters = Object.entries(scope.filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // JSON keeps the parts apart: no two different scopes give the same text.
    const scopeText = JSON.stringify(['list-cursor', scope.list, scope.businessId, filters]);
    return createHmac('sha256', this.secret).update(scopeText).update(body).digest().subarray(0, TAG_BYTES);
  }
}
