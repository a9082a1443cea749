import { checkSlot, performsService, type SlotFacts } from './slot-check.js';

const start = new Date('2030-01-07T10:00:00Z');
const end = new Date('2030-01-07T10:30:00Z');
const interval = (from: string, to: string) => ({ start: new Date(from), end: new Date(to) });

const free: SlotFacts = {
  now: new Date('2030-01-01T00:00:00Z'),
  slot: { start, end },
  timezone: 'Europe/Lisbon',
  staffActive: true,
  service: { active: true, performedByStaff: true },
  workingHours: [{ weekday: 1, startTime: '09:00:00', endTime: '13:00:00' }],
  appointments: [],
  blocks: [],
};

describe('checkSlot', () => {
  it('accepts a free slot, and slots that only touch busy intervals', () => {
    expect(checkSlot(free)).toBeNull();
    expect(
      checkSlot({
        ...free,
        appointments: [interval('2030-01-07T09:30:00Z', '2030-01-07T10:00:00Z')],
        blocks: [interval('2030-01-07T10:30:00Z', '2030-01-07T11:00:00Z')],
      }),
    ).toBeNull();
  });

  it('refuses as SLOT_UNAVAILABLE what the business does not offer', () => {
    const cases: Partial<SlotFacts>[] = [
      { now: new Date('2030-01-07T10:00:01Z') },
      { service: null },
      { service: { active: false, performedByStaff: true } },
      { service: { active: true, performedByStaff: false } },
      { staffActive: false },
      { workingHours: [{ weekday: 1, startTime: '10:15:00', endTime: '13:00:00' }] },
      { workingHours: [{ weekday: 2, startTime: '09:00:00', endTime: '13:00:00' }] },
    ];
    for (const change of cases) expect(checkSlot({ ...free, ...change })?.code).toBe('SLOT_UNAVAILABLE');
  });

  it('refuses an appointment that would end after the year 9999 (no response could write its end)', () => {
    expect(checkSlot({ ...free, slot: interval('9999-12-31T23:45:00Z', '+010000-01-01T00:15:00Z') })).toEqual({
      code: 'SLOT_UNAVAILABLE',
      detail: 'The appointment would end after the year 9999.',
      anyStaffDetail: 'The appointment would end after the year 9999.',
    });
  });

  it('refuses as SLOT_TAKEN an overlap with an active appointment or a time block', () => {
    const busy = [interval('2030-01-07T10:29:00Z', '2030-01-07T11:00:00Z')];
    expect(checkSlot({ ...free, appointments: busy })).toMatchObject({
      code: 'SLOT_TAKEN',
      detail: expect.stringContaining('appointment'),
    });
    expect(checkSlot({ ...free, blocks: busy })).toMatchObject({ code: 'SLOT_TAKEN', detail: expect.stringContaining('time block') });
  });

  it('says a refusal of a member\'s own for "any staff" without speaking of "the staff member" (docs/design-record.md#d16)', () => {
    const busy = [interval('2030-01-07T10:29:00Z', '2030-01-07T11:00:00Z')];
    const refusals = [
      checkSlot({ ...free, appointments: busy }),
      checkSlot({ ...free, blocks: busy }),
      checkSlot({ ...free, staffActive: false }),
      checkSlot({ ...free, service: { active: true, performedByStaff: false } }),
      checkSlot({ ...free, workingHours: [] }),
    ];
    for (const refusal of refusals) {
      expect(refusal?.detail).toMatch(/The staff member|staff member's/);
      expect(refusal?.anyStaffDetail).toMatch(/^No staff member who performs the service is free at this start/);
      expect(refusal?.anyStaffDetail).not.toMatch(/the staff member/i);
    }
  });

  it('answers SLOT_UNAVAILABLE before SLOT_TAKEN', () => {
    const taken = { ...free, appointments: [interval('2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z')] };
    expect(checkSlot({ ...taken, service: { active: false, performedByStaff: true } })?.code).toBe('SLOT_UNAVAILABLE');
  });
});

describe('performsService', () => {
  it('treats an empty service list as every service', () => {
    expect(performsService([], 's1')).toBe(true);
    expect(performsService(['s1', 's2'], 's2')).toBe(true);
    expect(performsService(['s1'], 's2')).toBe(false);
  });
});
