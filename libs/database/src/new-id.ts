import { v7 } from 'uuid';

/** UUIDv7: time-ordered, so new rows land at the end of their indexes (docs/design-record.md#d12). */
export function newId(): string {
  return v7();
}
