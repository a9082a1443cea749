import { APPOINTMENT_CODE_LENGTH, generateAppointmentCode } from './appointment-code.js';

describe('generateAppointmentCode', () => {
  it('has 8 characters from an alphabet without look-alikes', () => {
    for (let i = 0; i < 500; i += 1) {
      const code = generateAppointmentCode();
      expect(code).toHaveLength(APPOINTMENT_CODE_LENGTH);
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]+$/);
    }
  });

  it('uses every symbol of the alphabet', () => {
    const seen = new Set(Array.from({ length: 500 }, () => generateAppointmentCode()).join(''));
    expect(seen.size).toBe(32);
  });
});
