/** One page of a list as the API sends it. */
export interface ListPage<T> {
  data: T[];
  /** The cursor of the next page; null (or absent, for lists that are one page) at the end. */
  nextCursor?: string | null;
}

/**
 * Every item of a list, page after page, following `nextCursor` with the same filters (D5): the
 * pages are fetched as the loop asks for items, so breaking out of the loop fetches no more.
 */
export async function* walkPages<T>(fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
