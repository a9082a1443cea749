import { normalisePhone } from './phone.js';

describe('normalisePhone', () => {
  it('returns E.164 whatever the spacing', () => {
    expect(normalisePhone('+351912345678')).toEqual({ ok: true, e164: '+351912345678' });
    expect(normalisePhone(' +351 912 345 678 ')).toEqual({ ok: true, e164: '+351912345678' });
    expect(normalisePhone('+1 (650) 253-0000')).toEqual({ ok: true, e164: '+16502530000' });
    expect(normalisePhone('+55 11 91234-5678')).toEqual({ ok: true, e164: '+5511912345678' });
  });

  it('refuses a number without + and the country code', () => {
    expect(normalisePhone('912345678')).toEqual({ ok: false, reason: 'must start with + and the country code' });
    expect(normalisePhone('00351912345678')).toMatchObject({ ok: false });
  });

  it("reads a national form in the business's country (docs/design-record.md#d23)", () => {
    expect(normalisePhone('912 345 678', 'PT')).toEqual({ ok: true, e164: '+351912345678' });
    expect(normalisePhone('00351 912 345 678', 'PT')).toEqual({ ok: true, e164: '+351912345678' });
    expect(normalisePhone('0044 20 7946 0958', 'PT')).toEqual({ ok: true, e164: '+442079460958' });
    expect(normalisePhone('(11) 91234-5678', 'BR')).toEqual({ ok: true, e164: '+5511912345678' });
    // `+` keeps its own country code whatever the business's.
    expect(normalisePhone('+55 11 91234-5678', 'PT')).toEqual({ ok: true, e164: '+5511912345678' });
    for (const raw of ['12 345', '0912 345 678', '00351 12']) {
      expect(normalisePhone(raw, 'PT')).toEqual({ ok: false, reason: expect.stringMatching(/^is not a valid phone number .*PT\)$/) });
    }
  });

  it('refuses numbers that are not real numbers of their country', () => {
    for (const raw of ['+35191234567', '+999123456', '+', '+abc', '+351 912 345 678 999']) {
      expect(normalisePhone(raw)).toEqual({ ok: false, reason: 'is not a valid phone number' });
    }
  });
});
