import { DomainError } from '../errors/domain-error.js';
import { parseStartInstant } from './start-instant.js';

describe('parseStartInstant', () => {
  it('reads any offset, and a space for the T', () => {
    expect(parseStartInstant('2030-01-07T09:00:00Z', '/startAt').toISOString()).toBe('2030-01-07T09:00:00.000Z');
    expect(parseStartInstant('2030-07-01T09:00:00+01:00', '/startAt').toISOString()).toBe('2030-07-01T08:00:00.000Z');
    expect(parseStartInstant('2030-01-07 09:00:00-05:00', '/startAt').toISOString()).toBe('2030-01-07T14:00:00.000Z');
  });

  it('refuses a leap second, naming the field', () => {
    expect(() => parseStartInstant('2030-01-07T23:59:60Z', '/startAt')).toThrow(DomainError);
    try {
      parseStartInstant('2030-01-07T23:59:60Z', '/startAt');
    } catch (error) {
      expect((error as DomainError).fieldErrors).toEqual([{ path: '/startAt', message: expect.any(String) }]);
    }
  });
});
