import { MIN_MICROS, toTimestampLiteral, type EpochMicros } from './epoch-micros.js';
import type { KeysetPosition } from './keyset-position.js';

/**
 * Where a page starts, as the parameters of a list statement's one keyset bound
 * `(time, id) > ($time::timestamptz, $id::uuid)`: the cursor's position, or for a first page the
 * position just below `from` (inclusive). One bound for both keeps each list one fixed statement
 * whose bound is always a range condition of its (…, time, id) index. A cursor always lies at or
 * after `from`, since it is bound to the list's filters.
 */
export type PageStart = [time: string, id: string];

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export function pageStart(after: KeysetPosition | null, from: EpochMicros | null): PageStart {
  if (after) return [toTimestampLiteral(after.micros), after.id];
  // Every row is after (-infinity, nil); a row at exactly `from` is after (from - 1 µs, max).
  if (from === null || from <= MIN_MICROS) return ['-infinity', NIL_UUID];
  return [toTimestampLiteral(from - 1n), MAX_UUID];
}
