import { validationFailed, type FieldError } from '../errors/domain-error.js';
import { isEmailAddress } from '../contacts/email-address.js';
import { normalisePhone } from './phone.js';

/** GET /clients's lookup filters (D21), in the form stored: phone in E.164, e-mail in lower case. */
export interface ClientLookup {
  phone: string | null;
  email: string | null;
}

/**
 * Reads the `phone` and `email` filters of GET /clients the way a client's are written on create
 * (D7), so that a lookup finds exactly what the unique indexes call "the same client". The contract
 * has already checked their shape; the phone's real number ranges are checked here. A bad value is
 * 400 naming its parameter. A phone in national form is read in `country`, the business's
 * (docs/design-record.md#d23).
 */
export function clientLookup(query: { phone?: string; email?: string }, country: string | null = null): ClientLookup {
  const errors: FieldError[] = [];
  let phone: string | null = null;
  if (query.phone !== undefined) {
    const check = normalisePhone(query.phone, country);
    if (check.ok) phone = check.e164;
    else errors.push({ path: '/query/phone', message: check.reason });
  }
  let email: string | null = null;
  if (query.email !== undefined) {
    const trimmed = query.email.trim();
    if (isEmailAddress(trimmed)) email = trimmed.toLowerCase();
    else errors.push({ path: '/query/email', message: 'must be an e-mail address' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { phone, email };
}

/** The lookup as cursor filters: only the filters given, so a cursor of a plain list is unchanged. */
export function lookupFilters(lookup: ClientLookup): Record<string, string> {
  const filters: Record<string, string> = {};
  if (lookup.phone !== null) filters.phone = lookup.phone;
  if (lookup.email !== null) filters.email = lookup.email;
  return filters;
}
