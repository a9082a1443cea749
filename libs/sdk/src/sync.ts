import type { ListPage } from './pages.js';

/** Where an incremental sync starts and what it does with each change. */
export interface SyncOptions<T> {
  /**
   * The `since` the previous sync answered (persist it between runs); null or absent: the first
   * sync, which sees every record.
   */
  since?: string | null;
  /** Called with each changed record, in order of update, and awaited before the next. */
  onChange: (record: T) => void | Promise<void>;
  /** Records per page (1 to 100; default 100). */
  limit?: number;
  /** Aborts the sync between pages and any wait before a retry. */
  signal?: AbortSignal;
}

/** What a sync answers: the `since` to start the next one from, and how many changes it passed on. */
export interface SyncResult {
  since: string | null;
  changes: number;
}

/** Earlier than any record the API keeps: a first sync sees them all. */
const BEGINNING = '0001-01-01T00:00:00Z';

/**
 * The incremental sync the API documents (docs/design-record.md#d27): `updatedSince` = the largest
 * `updatedAt` of the last sync, then `nextCursor` to the end. The server stamps changes in commit
 * order per business, so nothing committed before a record the sync saw can appear later with a
 * smaller `updatedAt`. `updatedSince` is inclusive: the records at the boundary come again, and
 * onChange must treat a record it already has as an update (an upsert by id).
 */
export async function syncChanges<T extends { updatedAt: string }>(
  fetchPage: (query: { updatedSince: string; cursor?: string; limit: number }, signal: AbortSignal | undefined) => Promise<ListPage<T>>,
  options: SyncOptions<T>,
): Promise<SyncResult> {
  const updatedSince = options.since ?? BEGINNING;
  let since = options.since ?? null;
  let changes = 0;
  let cursor: string | undefined;
  do {
    options.signal?.throwIfAborted();
    const page = await fetchPage(
      { updatedSince, limit: options.limit ?? 100, ...(cursor === undefined ? {} : { cursor }) },
      options.signal,
    );
    for (const record of page.data) {
      await options.onChange(record);
      changes += 1;
      if (since === null || Date.parse(record.updatedAt) > Date.parse(since)) since = record.updatedAt;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return { since, changes };
}
