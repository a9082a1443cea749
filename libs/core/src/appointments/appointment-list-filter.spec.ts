import { readAppointmentFilter } from './appointment-list-filter.js';

const staffId = '01944b8f-7e6d-7c5b-9a49-38271605f4e3';
/** 2030-01-07T00:00:00Z. */
const FROM_MICROS = 1_893_974_400_000_000n;

describe('readAppointmentFilter', () => {
  it('reads the range to the microsecond, in any offset', () => {
    const check = readAppointmentFilter({ from: '2030-01-07T00:00:00.000001Z', to: '2030-01-07T02:00:00+01:00' });
    expect(check).toEqual({
      ok: true,
      filter: {
        order: 'start',
        from: FROM_MICROS + 1n,
        to: FROM_MICROS + 3_600_000_000n,
        updatedSince: null,
        status: null,
        staffId: null,
        clientId: null,
      },
    });
  });

  it('refuses from equal to or after to, naming /query/from', () => {
    for (const [from, to] of [
      ['2030-01-07T00:00:00Z', '2030-01-07T00:00:00Z'],
      ['2030-01-07T01:00:00+01:00', '2030-01-07T00:00:00Z'],
      ['2030-01-08T00:00:00Z', '2030-01-07T00:00:00Z'],
      ['2030-01-07T00:00:00.000001Z', '2030-01-07T00:00:00Z'],
    ]) {
      expect(readAppointmentFilter({ from, to })).toEqual({ ok: false, errors: [{ path: '/query/from', message: 'must be before to' }] });
    }
  });

  it('keeps the status and writes one staff id one way', () => {
    for (const given of [staffId, staffId.toUpperCase(), `urn:uuid:${staffId}`]) {
      const check = readAppointmentFilter({
        from: '2030-01-07T00:00:00Z',
        to: '2030-01-08T00:00:00Z',
        status: 'CANCELLED',
        staffId: given,
      });
      expect(check).toMatchObject({ ok: true, filter: { status: 'CANCELLED', staffId } });
    }
  });

  it('names an unreadable date-time', () => {
    expect(readAppointmentFilter({ from: 'soon', to: 'later' })).toEqual({
      ok: false,
      errors: [
        { path: '/query/from', message: expect.any(String) },
        { path: '/query/to', message: expect.any(String) },
      ],
    });
  });

  it('requires from and to without updatedSince, naming each missing one', () => {
    const message = 'is required unless updatedSince is given';
    expect(readAppointmentFilter({})).toEqual({
      ok: false,
      errors: [
        { path: '/query/from', message },
        { path: '/query/to', message },
      ],
    });
    expect(readAppointmentFilter({ from: '2030-01-07T00:00:00Z' })).toEqual({ ok: false, errors: [{ path: '/query/to', message }] });
  });

  it('lists in order of update with updatedSince, from and to then optional; clientId written one way (1.4.0)', () => {
    const clientId = staffId;
    expect(readAppointmentFilter({ updatedSince: '2030-01-07T00:00:00Z', clientId: `urn:uuid:${clientId.toUpperCase()}` })).toEqual({
      ok: true,
      filter: { order: 'update', from: null, to: null, updatedSince: FROM_MICROS, status: null, staffId: null, clientId },
    });
    expect(readAppointmentFilter({ updatedSince: '2030-01-07T00:00:00Z', from: '2030-01-08T00:00:00Z' })).toMatchObject({
      ok: true,
      filter: { order: 'update', from: FROM_MICROS + 86_400_000_000n, to: null },
    });
    expect(readAppointmentFilter({ updatedSince: 'yesterday' })).toEqual({
      ok: false,
      errors: [{ path: '/query/updatedSince', message: expect.any(String) }],
    });
    expect(
      readAppointmentFilter({ updatedSince: '2030-01-07T00:00:00Z', from: '2030-01-08T00:00:00Z', to: '2030-01-07T00:00:00Z' }),
    ).toEqual({
      ok: false,
      errors: [{ path: '/query/from', message: 'must be before to' }],
    });
  });
});
