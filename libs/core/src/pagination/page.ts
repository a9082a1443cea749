import type { CursorCodec, CursorScope } from './cursor-codec.js';
import type { KeysetPosition } from './keyset-position.js';

/** One page of a list: its records, and the cursor of the next page (null at the end). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What a repository is asked for: rows strictly after `after`, at most `take` of them. */
export interface PageRequest {
  after: KeysetPosition | null;
  take: number;
}

/** A row of a list with its exact place in the list's order. */
export interface PositionedRow<T> {
  record: T;
  position: KeysetPosition;
}

/** What the caller asks of a list besides its filters. */
export interface PageParams {
  cursor?: string;
  limit: number;
}

/**
 * Keyset pagination (docs/design-record.md#d5): the cursor, checked against its scope, says where to start; one row
 * more than the limit is fetched, and only its presence says that a next page exists, so the
 * last page ends with nextCursor null without an extra, empty request.
 */
export async function paginate<T>(
  codec: CursorCodec,
  scope: CursorScope,
  params: PageParams,
  fetch: (request: PageRequest) => Promise<PositionedRow<T>[]>,
): Promise<Page<T>> {
  const after = params.cursor === undefined ? null : codec.decode(scope, params.cursor);
  const rows = await fetch({ after, take: params.limit + 1 });
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => row.record),
    nextCursor: rows.length > params.limit && last ? codec.encode(scope, last.position) : null,
  };
}
