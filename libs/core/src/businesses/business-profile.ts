import { IANAZone } from 'luxon';
import type { FieldError } from '../errors/domain-error.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Checks the fields that describe a business; returns one error per bad field. */
export function checkBusinessProfile(profile: {
  slug: string;
  name: string;
  timezone: string;
  country: string;
  currency: string;
  locale?: string | null;
}): FieldError[] {
  const errors: FieldError[] = [];
  if (!/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(profile.slug)) {
    errors.push({ path: '/slug', message: 'must be 1 to 64 lower-case letters, digits or inner hyphens' });
  }
  if (profile.name.trim().length < 2 || profile.name.length > 120) {
    errors.push({ path: '/name', message: 'must be 2 to 120 characters' });
  }
  if (!IANAZone.isValidZone(profile.timezone)) {
    errors.push({ path: '/timezone', message: 'must be an IANA time zone such as Europe/Lisbon' });
  }
  if (!/^[A-Z]{2}$/.test(profile.country)) {
    errors.push({ path: '/country', message: 'must be an ISO 3166-1 alpha-2 code such as PT' });
  }
  if (!CURRENCIES.has(profile.currency)) {
    errors.push({ path: '/currency', message: 'must be an ISO 4217 code such as EUR' });
  }
  if (profile.locale != null) {
    try {
      Intl.getCanonicalLocales(profile.locale);
    } catch {
      errors.push({ path: '/locale', message: 'must be a BCP 47 language tag such as pt-PT' });
    }
  }
  return errors;
}
