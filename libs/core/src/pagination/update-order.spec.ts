import { DomainError } from '../errors/domain-error.js';
import { CursorCodec } from './cursor-codec.js';
import type { EpochMicros } from './epoch-micros.js';
import type { PageRequest, PositionedRow } from './page.js';
import { paginateInUpdateOrder } from './update-order.js';

const codec = new CursorCodec('cursor-secret-for-unit-tests-0123456789');
const businessId = '01944b8f-0000-7000-8000-000000000001';
const rows: PositionedRow<string>[] = ['a', 'b'].map((record, i) => ({
  record,
  position: { micros: BigInt(i), id: `01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e1${i}` },
}));

function recorder() {
  const calls: { since: EpochMicros | null; request: PageRequest }[] = [];
  const fetch = (since: EpochMicros | null, request: PageRequest) => {
    calls.push({ since, request });
    return Promise.resolve(request.after ? rows.slice(1) : rows);
  };
  return { calls, fetch };
}

describe('paginateInUpdateOrder', () => {
  it('passes updatedSince to the repository as exact microseconds', async () => {
    const { calls, fetch } = recorder();
    await paginateInUpdateOrder(codec, 'clients', businessId, { limit: 1, updatedSince: '2030-01-07T01:00:00.000001+01:00' }, fetch);
    await paginateInUpdateOrder(codec, 'clients', businessId, { limit: 1 }, fetch);
    expect(calls.map((c) => c.since)).toEqual([1_893_974_400_000_001n, null]);
  });

  it('binds the cursor to updatedSince as an instant, whatever its offset', async () => {
    const { fetch } = recorder();
    const first = await paginateInUpdateOrder(codec, 'payments', businessId, { limit: 1, updatedSince: '2030-01-07T00:00:00Z' }, fetch);
    const cursor = first.nextCursor!;
    const same = await paginateInUpdateOrder(
      codec,
      'payments',
      businessId,
      { limit: 1, cursor, updatedSince: '2030-01-07T02:00:00+02:00' },
      fetch,
    );
    expect(same.items).toEqual(['b']);
    for (const updatedSince of ['2030-01-07T00:00:00.000001Z', undefined]) {
      await expect(paginateInUpdateOrder(codec, 'payments', businessId, { limit: 1, cursor, updatedSince }, fetch)).rejects.toMatchObject({
        code: 'CURSOR_INVALID',
      });
    }
    await expect(
      paginateInUpdateOrder(codec, 'sales', businessId, { limit: 1, cursor, updatedSince: '2030-01-07T00:00:00Z' }, fetch),
    ).rejects.toMatchObject({
      code: 'CURSOR_INVALID',
    });
  });

  it('names /query/updatedSince when it is not a date-time', async () => {
    const { calls, fetch } = recorder();
    const refusal = paginateInUpdateOrder(codec, 'sales', businessId, { limit: 1, updatedSince: 'yesterday' }, fetch);
    await expect(refusal).rejects.toBeInstanceOf(DomainError);
    await expect(refusal).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/query/updatedSince' }] });
    expect(calls).toHaveLength(0);
  });
});
