import { instantWithLocal, intervalWithLocal, localTime } from './local-time.js';

describe('times in the business’s time zone', () => {
  it('reads an instant as the business’s wall clock, with its offset that day', () => {
    expect(localTime('2030-01-07T09:00:00.000Z', 'Europe/Lisbon')).toEqual({ date: '2030-01-07', time: '09:00', offset: '+00:00' });
    expect(localTime('2030-07-07T09:00:00.000Z', 'Europe/Lisbon')).toEqual({ date: '2030-07-07', time: '10:00', offset: '+01:00' });
    expect(localTime('2030-07-07T02:30:00.000Z', 'America/Sao_Paulo')).toEqual({ date: '2030-07-06', time: '23:30', offset: '-03:00' });
    expect(localTime('2030-07-07T09:00:00.000Z', 'Asia/Kolkata').offset).toBe('+05:30');
  });

  it('gives UTC beside the local time, and UTC alone when the zone is not known', () => {
    expect(instantWithLocal('2030-07-07T09:00:00.000Z', 'Europe/Lisbon')).toBe(
      '2030-07-07T09:00:00.000Z (2030-07-07 10:00 +01:00 Europe/Lisbon)',
    );
    expect(instantWithLocal('2030-07-07T09:00:00.000Z', null)).toBe('2030-07-07T09:00:00.000Z');
    expect(intervalWithLocal('2030-07-07T22:30:00.000Z', '2030-07-07T23:30:00.000Z', 'Europe/Lisbon')).toBe(
      '2030-07-07 23:30–2030-07-08 00:30 +01:00 Europe/Lisbon (UTC 2030-07-07T22:30:00.000Z–2030-07-07T23:30:00.000Z)',
    );
    expect(intervalWithLocal('2030-07-07T09:00:00.000Z', '2030-07-07T09:30:00.000Z', null)).toBe(
      '2030-07-07T09:00:00.000Z–2030-07-07T09:30:00.000Z (UTC)',
    );
  });
});
