import type { EpochMicros } from './epoch-micros.js';

/**
 * Where a page ends in a list ordered by (time, id): the last row's time to the microsecond
 * and its id, so that the next page starts strictly after it.
 */
export interface KeysetPosition {
  micros: EpochMicros;
  id: string;
}
