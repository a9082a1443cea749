import { loadContract } from './openapi-document.js';
import { RequestValidator } from './request-validator.js';

const validator = new RequestValidator();
const uuid = '0190b5a4-7c1e-7000-8000-000000000001';

describe('RequestValidator (compiled from openapi/v1.3.0.yaml)', () => {
  it('accepts a Form A booking and a Form B booking', () => {
    expect(
      validator.validateBody('createAppointment', {
        staffId: uuid,
        serviceId: uuid,
        startAt: '2030-01-07T09:00:00+01:00',
        client: { id: uuid },
      }).ok,
    ).toBe(true);
    expect(
      validator.validateBody('createAppointment', {
        staffId: uuid,
        serviceId: uuid,
        startAt: '2030-01-07T09:00:00Z',
        client: { name: 'Ana Silva', phone: '+351912345678', email: '' },
      }).ok,
    ).toBe(true);
  });

  it('names an unknown property, both client forms at once, and a short name', () => {
    const result = validator.validateBody('createAppointment', {
      staffId: uuid,
      serviceId: uuid,
      startAt: '2030-01-07T09:00:00Z',
      extra: 1,
      client: { id: uuid, name: 'A', phone: '+351912345678' },
    });
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.problems.map((p) => p.path);
    expect(paths).toContain('/extra');
    expect(paths.some((p) => p.startsWith('/client/'))).toBe(true);
  });

  // Since 1.4.0 a phone without + is the business's national form (docs/design-record.md#d23): the pattern refuses letters.
  it('names a bad e-mail, a phone that is not one and a bad date-time', () => {
    const result = validator.validateBody('createAppointment', {
      staffId: uuid,
      serviceId: uuid,
      startAt: 'tomorrow',
      client: { name: 'Ana Silva', phone: 'nine one two', email: 'not-an-email' },
    });
    const paths = result.ok ? [] : result.problems.map((p) => p.path).sort();
    expect(paths).toEqual(['/client/email', '/client/phone', '/startAt']);
  });

  it('refuses text no store keeps as sent: NUL characters and unpaired surrogates, in values and names', () => {
    const result = validator.validateBody('createClient', {
      name: 'Ana\u0000',
      phone: '+351912345678',
      consent: true,
      guardianName: 'Jo\uD800',
    });
    expect(result.ok ? [] : result.problems.map((p) => p.path).sort()).toEqual(['/guardianName', '/name']);
    const names = validator.validateBody('cancelAppointment', { reason: 'ok ok', 'a\u0000~/': 1 });
    expect(names.ok ? [] : names.problems.map((p) => p.path)).toEqual(['/a\u0000~0~1']);
    expect(validator.validateBody('createClient', { name: 'Zoë 👩‍🔬 محمد', phone: '+351912345678', consent: true }).ok).toBe(true);
  });

  it('checks metadata (D23) and names the offending key, each rule on its own', () => {
    const problems = (metadata: unknown) => {
      const result = validator.validateBody('updateAppointment', { metadata });
      return result.ok ? [] : result.problems;
    };
    expect(problems({ crmId: 'A-1042', 'a.b_c-9': '', [`k${'x'.repeat(39)}`]: 'v'.repeat(500) })).toEqual([]);
    expect(problems(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])))).toEqual([
      { path: '/metadata', message: 'must have at most 20 keys' },
    ]);
    expect(problems({ 'bad key': 'v' })).toEqual([
      { path: '/metadata/bad key', message: 'is not an allowed key: must be 1 to 40 characters of A-Z a-z 0-9 _ . -' },
    ]);
    expect(problems({ [`k${'x'.repeat(40)}`]: 'v' }).map((p) => p.path)).toEqual([`/metadata/k${'x'.repeat(40)}`]);
    expect(problems({ '': 'v' }).map((p) => p.path)).toEqual(['/metadata/']);
    expect(problems({ note: 'v'.repeat(501) })).toEqual([{ path: '/metadata/note', message: 'must NOT have more than 500 characters' }]);
    const unseen =
      'must not contain control, bidirectional or zero-width characters (U+0000–U+001F, U+007F–U+009F, U+061C, U+200B–U+200F, U+202A–U+202E, U+2060, U+2066–U+2069, U+FEFF)';
    expect(problems({ note: 'line\nbreak' })).toEqual([{ path: '/metadata/note', message: unseen }]);
    // Bidirectional controls and zero-width characters show a reader other text than is stored.
    for (const hidden of [
      '\u061C',
      '\u200B',
      '\u200C',
      '\u200D',
      '\u200E',
      '\u200F',
      '\u202A',
      '\u202E',
      '\u2060',
      '\u2066',
      '\u2069',
      '\uFEFF',
    ]) {
      expect(problems({ note: `a${hidden}b` })).toEqual([{ path: '/metadata/note', message: unseen }]);
      expect(problems({ [`k${hidden}`]: 'v' }).map((p) => p.path)).toEqual([`/metadata/k${hidden}`]);
    }
    // The characters beside them, and text in right-to-left scripts, are kept as given.
    expect(problems({ a: '\u200A\u2010\u2029\u202F\u206A\uFEFE', b: 'محمد 👩 ok' })).toEqual([]);
    expect(problems({ count: 3 })).toEqual([{ path: '/metadata/count', message: 'must be string' }]);
    expect(problems(['a']).map((p) => p.path)).toEqual(['/metadata']);
    expect(validator.validateBody('updateAppointment', {}).ok).toBe(false);
  });

  it('escapes ~ and / of property and parameter names in JSON Pointers (RFC 6901)', () => {
    const body = validator.validateBody('cancelAppointment', { reason: 'ok ok', 'a~b/c': 1 });
    expect(body.ok ? [] : body.problems.map((p) => p.path)).toEqual(['/a~0b~1c']);
    const query = validator.validateQuery('listClients', { 'x~/y': '1' });
    expect(query.ok ? [] : query.problems.map((p) => p.path)).toEqual(['/query/x~0~1y']);
  });

  it('coerces the query, applies the default limit and names bad parameters', () => {
    const ok = validator.validateQuery<{ limit: number }>('listClients', {});
    expect(ok.ok && ok.value.limit).toBe(50);
    const bad = validator.validateQuery('listClients', { limit: '0', updatedSince: 'x', foo: '1' });
    const paths = bad.ok ? [] : bad.problems.map((p) => p.path).sort();
    expect(paths).toEqual(['/query/foo', '/query/limit', '/query/updatedSince']);
  });

  it('refuses an operation the contract does not have', () => {
    expect(() => validator.validateQuery('deleteEverything', {})).toThrow(/no operation/);
  });

  it('compiles every operation at once, and stops on a schema that does not compile', () => {
    expect(() => validator.compileAll()).not.toThrow();
    const document = loadContract().document;
    const broken = structuredClone(document);
    broken.paths['/clients'].post.requestBody = { content: { 'application/json': { schema: { type: 'no-such-type' } } } };
    expect(() => new RequestValidator(broken).compileAll()).toThrow();
  });
});
