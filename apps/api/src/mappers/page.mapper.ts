import type { Page } from '#core/pagination/page.js';

/** The list envelope of every paginated operation: `{ data, nextCursor }`. */
export function toList<T, R>(page: Page<T>, map: (item: T) => R): { data: R[]; nextCursor: string | null } {
  return { data: page.items.map(map), nextCursor: page.nextCursor };
}
