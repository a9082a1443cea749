import { ParseError, parsePhoneNumberWithError } from 'libphonenumber-js/max';

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

/**
 * Validates a client phone and returns it in E.164, the one form stored, so that uniqueness per
 * business holds however the number was typed. The full ("max") metadata is used because it knows
 * each country's real number ranges, not only their lengths.
 */
export function normalisePhone(raw: string): PhoneCheck {
  const trimmed = raw.trim();
  // Without a country code a number is ambiguous; the API and the dashboard both demand one.
  if (!trimmed.startsWith('+')) return { ok: false, reason: 'must start with + and the country code' };
  try {
    const phone = parsePhoneNumberWithError(trimmed);
    return phone.isValid() ? { ok: true, e164: phone.number } : { ok: false, reason: 'is not a valid phone number' };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, reason: 'is not a valid phone number' };
    throw error;
  }
}
