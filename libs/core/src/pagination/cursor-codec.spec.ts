import { DomainError } from '../errors/domain-error.js';
import { CURSOR_MAX_LENGTH, CursorCodec, type CursorScope } from './cursor-codec.js';
import type { KeysetPosition } from './keyset-position.js';

const codec = new CursorCodec('cursor-secret-for-unit-tests-0123456789');
const scope: CursorScope = {
  list: 'appointments',
  businessId: '01944b8f-0000-7000-8000-000000000001',
  filters: { from: '1893456000000000', to: '1894060800000000', status: null, staffId: null },
};
const position: KeysetPosition = { micros: 1_893_456_000_123_456n, id: '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10' };

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
  return undefined;
}

describe('CursorCodec', () => {
  it('gives back the exact position, microseconds included, as short opaque base64url', () => {
    const cursor = codec.encode(scope, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
    expect(cursor).not.toContain('01944c2e');
    expect(codec.decode(scope, cursor)).toEqual(position);
  });

  it('carries instants before 1970 and ids in upper case as the same position', () => {
    const early = { micros: -1_234_567n, id: position.id.toUpperCase() };
    expect(codec.decode(scope, codec.encode(scope, early))).toEqual({ micros: -1_234_567n, id: position.id });
  });

  it('does not depend on the order the filters are listed in', () => {
    const reordered: CursorScope = { ...scope, filters: { staffId: null, status: null, to: scope.filters.to, from: scope.filters.from } };
    expect(codec.decode(reordered, codec.encode(scope, position))).toEqual(position);
  });

  it('refuses a cursor used with other filters, another business or another list', () => {
    const cursor = codec.encode(scope, position);
    const others: CursorScope[] = [
      { ...scope, filters: { ...scope.filters, status: 'CONFIRMED' } },
      { ...scope, filters: { ...scope.filters, to: '1894060800000001' } },
      { ...scope, filters: { from: scope.filters.from, to: scope.filters.to } },
      { ...scope, businessId: '01944b8f-0000-7000-8000-000000000002' },
      { ...scope, list: 'payments' },
    ];
    for (const other of others) expect(refusal(() => codec.decode(other, cursor))).toBe('CURSOR_INVALID');
  });

  it('refuses every single-character alteration', () => {
    const cursor = codec.encode(scope, position);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < cursor.length; i += 1) {
      const replacement = alphabet[(alphabet.indexOf(cursor[i]) + 1) % alphabet.length];
      const altered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      expect({ i, code: refusal(() => codec.decode(scope, altered)) }).toEqual({ i, code: 'CURSOR_INVALID' });
    }
  });

  it('refuses garbage, padding, truncation, extension and anything over 200 characters', () => {
    const cursor = codec.encode(scope, position);
    for (const bad of [
      '',
      'garbage',
      '!!!!',
      `${cursor}=`,
      cursor.slice(0, -1),
      `${cursor}A`,
      `${cursor} `,
      'A'.repeat(CURSOR_MAX_LENGTH + 1),
      `${cursor}${'A'.repeat(200)}`,
    ]) {
      expect(refusal(() => codec.decode(scope, bad))).toBe('CURSOR_INVALID');
    }
  });

  it('refuses a cursor signed with another secret', () => {
    const foreign = new CursorCodec('another-secret-another-secret-0123456789').encode(scope, position);
    expect(refusal(() => codec.decode(scope, foreign))).toBe('CURSOR_INVALID');
  });

  it('names the cursor parameter in the refusal', () => {
    try {
      codec.decode(scope, 'garbage');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).fieldErrors).toEqual([{ path: '/query/cursor', message: expect.any(String) }]);
    }
  });

  it('will not encode a position whose id is not a UUID', () => {
    expect(() => codec.encode(scope, { micros: 1n, id: 'not-a-uuid' })).toThrow();
  });
});
