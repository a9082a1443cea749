import { DomainError } from '../errors/domain-error.js';
import { clientLookup, lookupFilters } from './client-lookup.js';

/**
 * The filters of GET /clients (docs/design-record.md#d21). A `phone` or `email` that is given is a
 * lookup, and a lookup without a usable value must be refused: read as absent, it would become the
 * plain list, whose first client is nobody's match. The contract's pattern and format refuse such
 * values first; this holds the rule here too, where the repository's statement is chosen.
 */
function fieldErrorsOf(query: { phone?: string; email?: string }): string[] {
  try {
    clientLookup(query);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).fieldErrors.map((field) => field.path);
  }
  throw new Error(`clientLookup(${JSON.stringify(query)}) was not refused`);
}

describe('clientLookup', () => {
  it('refuses an empty or blank phone or e-mail, naming each parameter', () => {
    expect(fieldErrorsOf({ phone: '' })).toEqual(['/query/phone']);
    expect(fieldErrorsOf({ phone: '   ' })).toEqual(['/query/phone']);
    expect(fieldErrorsOf({ email: '' })).toEqual(['/query/email']);
    expect(fieldErrorsOf({ email: ' ' })).toEqual(['/query/email']);
    expect(fieldErrorsOf({ phone: '', email: '' })).toEqual(['/query/phone', '/query/email']);
    // An empty one beside a usable one is refused too, not read as a lookup by the other alone.
    expect(fieldErrorsOf({ phone: '', email: 'ana@example.com' })).toEqual(['/query/phone']);
  });

  it("reads a phone in national form in the business's country, and still refuses an empty one", () => {
    expect(clientLookup({ phone: '912 345 678' }, 'PT')).toEqual({ phone: '+351912345678', email: null });
    expect(clientLookup({ phone: '00351912345678' }, 'PT')).toEqual({ phone: '+351912345678', email: null });
    expect(() => clientLookup({ phone: '' }, 'PT')).toThrow(DomainError);
    expect(() => clientLookup({ phone: '912 345 678' })).toThrow(DomainError);
  });

  it('reads a lookup in the stored form, and neither parameter as the plain list', () => {
    expect(clientLookup({ phone: '+351 912 345 678', email: ' Ana@Example.COM ' })).toEqual({
      phone: '+351912345678',
      email: 'ana@example.com',
    });
    const plain = clientLookup({});
    expect(plain).toEqual({ phone: null, email: null });
    expect(lookupFilters(plain)).toEqual({});
  });
});
