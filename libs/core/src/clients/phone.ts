import { ParseError, parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js/max';

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

/**
 * Whether a phone is written in a national form (`912 345 678`, `00351 912 345 678`) and so can
 * only be read in a country: the business's (docs/design-record.md#d23). Only then is its country
 * looked up.
 */
export function isNationalForm(raw: string): boolean {
  return !raw.trim().startsWith('+');
}

/**
 * Validates a client phone and returns it in E.164, the one form stored, so that uniqueness per
 * business holds however the number was typed. The full ("max") metadata is used because it knows
 * each country's real number ranges, not only their lengths. A number without `+` is read in
 * `country`, the business's (docs/design-record.md#d23): a national number, or the country's
 * international prefix (`00` in Portugal) and a country code.
 */
export function normalisePhone(raw: string, country: string | null = null): PhoneCheck {
  const trimmed = raw.trim();
  // Without a country code or a country to read it in, a number is ambiguous.
  if (isNationalForm(trimmed) && country === null) return { ok: false, reason: 'must start with + and the country code' };
  try {
    const phone = isNationalForm(trimmed) ? parsePhoneNumberWithError(trimmed, country as CountryCode) : parsePhoneNumberWithError(trimmed);
    return phone.isValid() ? { ok: true, e164: phone.number } : { ok: false, reason: invalidReason(country) };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, reason: invalidReason(country) };
    throw error;
  }
}

function invalidReason(country: string | null): string {
  return country === null
    ? 'is not a valid phone number'
    : `is not a valid phone number (written with + and the country code, or in the business's country, ${country})`;
}
