import { APPOINTMENT_STATUSES } from '#database/entities/appointment.entity.js';
import { isActive, statusAfter } from './appointment-transitions.js';

describe('appointment transitions', () => {
  it('treats only PENDING and CONFIRMED as active', () => {
    expect(APPOINTMENT_STATUSES.filter(isActive)).toEqual(['PENDING', 'CONFIRMED']);
  });

  it('confirms only a PENDING appointment', () => {
    expect(APPOINTMENT_STATUSES.map((s) => statusAfter('confirm', s))).toEqual(['CONFIRMED', null, null, null, null, null]);
  });

  it('completes or marks as no-show a CONFIRMED or PENDING appointment, nothing else', () => {
    expect(APPOINTMENT_STATUSES.map((s) => statusAfter('complete', s))).toEqual(['COMPLETED', 'COMPLETED', null, null, null, null]);
    expect(APPOINTMENT_STATUSES.map((s) => statusAfter('no-show', s))).toEqual(['NO_SHOW', 'NO_SHOW', null, null, null, null]);
  });
});
