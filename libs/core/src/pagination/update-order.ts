import { validationFailed } from '../errors/domain-error.js';
import type { CursorCodec, CursorScope } from './cursor-codec.js';
import { parseDateTime, type EpochMicros } from './epoch-micros.js';
import { paginate, type Page, type PageParams, type PageRequest, type PositionedRow } from './page.js';

/** The query of a list in update order (clients, payments, sales). */
export interface UpdateOrderQuery extends PageParams {
  updatedSince?: string;
}

/**
 * One page of a list in (updated_at, id) order, optionally from `updatedSince` (inclusive), with a
 * list's own filters in canonical form (`filters`, bound to the cursor like `updatedSince`). That
 * order makes the list an incremental sync: a record changed while a client walks the list moves
 * to the end of the order, past the cursor, and is met again, so the walk ends with every record's
 * latest state.
 */
export async function paginateInUpdateOrder<T>(
  codec: CursorCodec,
  list: CursorScope['list'],
  businessId: string,
  query: UpdateOrderQuery,
  fetch: (since: EpochMicros | null, request: PageRequest) => Promise<PositionedRow<T>[]>,
  filters: Readonly<Record<string, string>> = {},
): Promise<Page<T>> {
  let since: EpochMicros | null = null;
  if (query.updatedSince !== undefined) {
    since = parseDateTime(query.updatedSince);
    if (since === null) {
      throw validationFailed([{ path: '/query/updatedSince', message: 'must be a date-time with an offset, in the years 0001 to 9999' }]);
    }
  }
  const scope: CursorScope = { list, businessId, filters: { ...filters, updatedSince: since === null ? null : String(since) } };
  return paginate(codec, scope, query, (request) => fetch(since, request));
}
