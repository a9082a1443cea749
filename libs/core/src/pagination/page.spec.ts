import { CursorCodec, type CursorScope } from './cursor-codec.js';
import { paginate, type PageRequest, type PositionedRow } from './page.js';

const codec = new CursorCodec('cursor-secret-for-unit-tests-0123456789');
const scope: CursorScope = { list: 'clients', businessId: '01944b8f-0000-7000-8000-000000000001', filters: { updatedSince: null } };

const rows: PositionedRow<string>[] = Array.from({ length: 5 }, (_, i) => ({
  record: `row-${i}`,
  position: { micros: BigInt(1_000_000 + i), id: `01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e1${i}` },
}));

/** A fake repository: rows strictly after the position, at most `take`. */
const fetchRows = (requests: PageRequest[]) => (request: PageRequest) => {
  requests.push(request);
  const start = request.after ? rows.findIndex((r) => r.position.id === request.after!.id) + 1 : 0;
  return Promise.resolve(rows.slice(start, start + request.take));
};

describe('paginate', () => {
  it('fetches one row more than the limit and walks to a null nextCursor', async () => {
    const requests: PageRequest[] = [];
    const first = await paginate(codec, scope, { limit: 2 }, fetchRows(requests));
    expect(first.items).toEqual(['row-0', 'row-1']);
    expect(requests[0]).toEqual({ after: null, take: 3 });
    const second = await paginate(codec, scope, { limit: 2, cursor: first.nextCursor! }, fetchRows(requests));
    expect(second.items).toEqual(['row-2', 'row-3']);
    expect(requests[1].after).toEqual(rows[1].position);
    const last = await paginate(codec, scope, { limit: 2, cursor: second.nextCursor! }, fetchRows(requests));
    expect(last).toEqual({ items: ['row-4'], nextCursor: null });
  });

  it('ends with a null nextCursor when the last page is exactly full', async () => {
    const page = await paginate(codec, scope, { limit: 5 }, fetchRows([]));
    expect(page.items).toHaveLength(5);
    expect(page.nextCursor).toBeNull();
  });

  it('refuses a cursor of another scope before touching the repository', async () => {
    const requests: PageRequest[] = [];
    const first = await paginate(codec, scope, { limit: 2 }, fetchRows(requests));
    const other: CursorScope = { ...scope, filters: { updatedSince: '0' } };
    await expect(paginate(codec, other, { limit: 2, cursor: first.nextCursor! }, fetchRows(requests))).rejects.toMatchObject({
      code: 'CURSOR_INVALID',
    });
    expect(requests).toHaveLength(1);
  });
});
