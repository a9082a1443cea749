import { syncChanges } from './sync.js';
import type { ListPage } from './pages.js';

interface Row {
  id: string;
  updatedAt: string;
}

/** A list of pages keyed by cursor, recording each query it was asked. */
function pages(byCursor: Record<string, ListPage<Row>>) {
  const asked: { updatedSince: string; cursor?: string; limit: number }[] = [];
  const fetchPage = (query: { updatedSince: string; cursor?: string; limit: number }) => {
    asked.push(query);
    return Promise.resolve(byCursor[query.cursor ?? 'first']);
  };
  return { asked, fetchPage };
}

describe('syncChanges', () => {
  it('starts a first sync from the beginning, follows nextCursor with the same updatedSince, and answers the largest updatedAt', async () => {
    const { asked, fetchPage } = pages({
      first: { data: [{ id: 'a', updatedAt: '2030-01-01T10:00:00.000Z' }], nextCursor: 'c2' },
      c2: { data: [{ id: 'b', updatedAt: '2030-01-01T10:00:00.005Z' }], nextCursor: null },
    });
    const seen: string[] = [];
    const result = await syncChanges(fetchPage, { onChange: (row) => void seen.push(row.id) });
    expect(seen).toEqual(['a', 'b']);
    expect(result).toEqual({ since: '2030-01-01T10:00:00.005Z', changes: 2 });
    expect(asked).toEqual([
      { updatedSince: '0001-01-01T00:00:00Z', limit: 100 },
      { updatedSince: '0001-01-01T00:00:00Z', limit: 100, cursor: 'c2' },
    ]);
  });

  it('passes the previous since as updatedSince and keeps it when nothing changed', async () => {
    const { asked, fetchPage } = pages({ first: { data: [], nextCursor: null } });
    const result = await syncChanges(fetchPage, { since: '2030-02-01T00:00:00.000Z', limit: 20, onChange: () => undefined });
    expect(result).toEqual({ since: '2030-02-01T00:00:00.000Z', changes: 0 });
    expect(asked).toEqual([{ updatedSince: '2030-02-01T00:00:00.000Z', limit: 20 }]);
  });

  it('compares instants, not text, and awaits onChange before the next record', async () => {
    const { fetchPage } = pages({
      first: {
        data: [
          { id: 'a', updatedAt: '2030-01-01T10:00:00.000Z' },
          // The same instant an hour ahead in its offset's text: not later.
          { id: 'b', updatedAt: '2030-01-01T11:00:00.000+01:00' },
        ],
        nextCursor: null,
      },
    });
    const order: string[] = [];
    const result = await syncChanges(fetchPage, {
      onChange: async (row) => {
        order.push(`start ${row.id}`);
        await new Promise((done) => setImmediate(done));
        order.push(`end ${row.id}`);
      },
    });
    expect(result.since).toBe('2030-01-01T10:00:00.000Z');
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('stops between pages when its signal aborts', async () => {
    const controller = new AbortController();
    const { asked, fetchPage } = pages({
      first: { data: [{ id: 'a', updatedAt: '2030-01-01T10:00:00.000Z' }], nextCursor: 'c2' },
      c2: { data: [], nextCursor: null },
    });
    const sync = syncChanges(fetchPage, { signal: controller.signal, onChange: () => controller.abort(new Error('enough')) });
    await expect(sync).rejects.toThrow('enough');
    expect(asked).toHaveLength(1);
  });
});
