import fc from 'fast-check';
import { loadContract, resolveRef, type OpenApiDocument } from '#contract/openapi-document.js';

/** A JSON Schema of the contract (2020-12, as OpenAPI 3.1 writes it). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
}

/**
 * Arbitraries for a JSON pointer inside a generated value (`/client/phone`, or a query parameter's
 * name): values that make sense for this business (its staff ids, working-hour slots, real
 * phones), mixed in with what the schema alone would give.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;

/** Property names an attacker tries: prototype pollution, JSON Pointer escapes, empty, look-alikes. */
export const HOSTILE_NAMES = ['__proto__', 'constructor', 'prototype', 'a~b', 'a/b', '~1', '', ' ', 'id', 'ID', 'name\u0000', '$where'];

/**
 * Pieces of text that break careless code: NUL, lone surrogates, only spaces, right-to-left
 * overrides, combining marks, emoji sequences, quotes and SQL, JSON Pointer characters.
 */
export const HOSTILE_TEXT = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '  ',
  '\t',
  '\u00A0',
  '\u2003',
  '\u202E',
  '\u200F',
  '\u200B',
  '\uFEFF',
  'e\u0301',
  '\u0301',
  '👩‍🔬',
  '🏳️‍🌈',
  'محمد',
  'שלום',
  '李',
  "'",
  '"',
  '\\',
  "'; DROP TABLE clients; --",
  '%00',
  '~1',
  '/',
  '<b>',
];

/** Strings of every kind: printable ASCII, control characters, any code point, graphemes (emoji, RTL, combining marks), hostile pieces. */
/** `^[^…]*$`: a pattern that only says which characters may not appear. */
const EXCLUDING_ONLY = /^\^\[\^[^\]]*\]\*\$$/;

export const anyString = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> => {
  const fits = (s: string) => [...s].length >= (constraints.minLength ?? 0) && [...s].length <= (constraints.maxLength ?? Infinity);
  const strings = [
    fc.string(constraints),
    fc.string({ ...constraints, unit: 'binary-ascii' }),
    fc.string({ ...constraints, unit: 'grapheme' }),
    fc.string({ ...constraints, unit: 'binary' }),
  ];
  // Hostile fragments are never empty: asked for the empty string only (the value under a
  // minLength of 1), their filter would never pass, and fast-check would draw forever.
  if (constraints.maxLength === 0) return fc.oneof(...strings);
  return fc.oneof(
    ...strings,
    fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ minLength: 1, maxLength: 4 })), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join(''))
      .filter(fits),
  );
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Any text the contract's `date-time` format admits (RFC 3339: years 0000–9999, `T`/`t`/space,
 * fractions, `Z`/`z` or an offset up to ±23:59, the leap second), plus near misses.
 */
export function dateTimeText(): fc.Arbitrary<string> {
  const valid = fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 1969, 1970, 2000, 2038, 9999)),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constant(60) }),
      fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/)),
      separator: fc.constantFrom('T', 'T', 't', ' '),
      offset: fc.oneof(
        fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
        fc
          .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
          .map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
      ),
    })
    .map(
      (p) =>
        `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}${p.separator}${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.fraction}${p.offset}`,
    );
  const nearMiss = fc.constantFrom(
    '2030-01-07T09:00:00',
    '2030-01-07',
    '2030-02-30T09:00:00Z',
    '2030-01-07T24:00:00Z',
    '2030-01-07T09:00:00+24:00',
    '2030-1-7T9:00:00Z',
    '2030-01-07T09:00:00.Z',
    '+012030-01-07T09:00:00Z',
    'now',
    '1893920400',
  );
  // The ends of the calendar, where an offset carries the instant into year 0000 or 10000.
  const edge = fc
    .tuple(
      fc.constantFrom('9999-12-31T', '0000-01-01T', '0001-01-01T'),
      fc.integer({ min: 0, max: 23 }),
      fc.constantFrom('00', '30'),
      fc.integer({ min: 0, max: 14 }),
    )
    .map(([day, hour, minute, offset]) => `${day}${pad(hour)}:${minute}:00${day.startsWith('9999') ? '-' : '+'}${pad(offset)}:00`);
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: nearMiss }, { weight: 1, arbitrary: edge });
}

/** `YYYY-MM-DD`, valid calendar dates or near misses. */
export function dateText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`),
    fc.constantFrom('1990-02-29', '1990-13-01', '1990-1-1', '19900101', '1990-01-01T00:00:00Z'),
  );
}

/**
 * Generates requests from the contract's own schemas: `valid(schema)` gives values the schema
 * accepts (mostly: formats are approximated, so the suites classify every value with the
 * contract's validator instead of trusting the generator), `invalid(schema)` values it refuses.
 */
export class SchemaArbitraries {
  constructor(private readonly document: OpenApiDocument = loadContract().document) {}

  resolve(schema: Schema): Schema {
    return resolveRef<Schema>(this.document, schema);
  }

  /** A value the schema accepts, `hints` mixed in at their pointers. */
  valid(schema: Schema, hints: Hints = {}, pointer = ''): fc.Arbitrary<unknown> {
    const own = this.fromSchema(this.resolve(schema), hints, pointer);
    const hint = hints[pointer];
    return hint ? fc.oneof({ weight: 4, arbitrary: hint }, { weight: 1, arbitrary: own }) : own;
  }

  private fromSchema(schema: Schema, hints: Hints, pointer: string): fc.Arbitrary<unknown> {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches) return fc.oneof(...branches.map((b) => this.valid(b, hints, pointer)));
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length > 1) return fc.oneof(...types.map((type) => this.fromSchema({ ...schema, type }, hints, pointer)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'string':
        return this.string(schema);
      case 'array':
        return fc.array(this.valid(schema.items ?? {}, hints, `${pointer}/0`), { maxLength: 3 });
      case 'object':
        return this.object(schema, hints, pointer);
      case undefined:
      default:
        return fc.jsonValue();
    }
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const max = schema.maxLength ?? 300;
    const fits = (s: string) => [...s].length >= (schema.minLength ?? 0) && [...s].length <= max;
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'date-time':
        return dateTimeText().filter(fits);
      case 'date':
        return dateText();
      case 'email':
        return fc.emailAddress().filter(fits);
      case 'uri':
        // An absolute address (webhook URLs, `format: uri` since 1.4.0).
        return fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }).filter(fits);
      case undefined:
      default:
        if (schema.pattern && EXCLUDING_ONLY.test(schema.pattern)) {
          // A pattern that only rules characters out (the contract's text rules, ^[^…]*$) admits most
          // strings: draw any and keep those it admits. fast-check's stringMatching would instead walk
          // the negated class over all of Unicode, which takes minutes per value.
          const admits = new RegExp(schema.pattern, 'u');
          return anyString({ minLength: schema.minLength ?? 0, maxLength: Math.min(max, 200) }).filter((s) => fits(s) && admits.test(s));
        }
        if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
        return anyString({ minLength: schema.minLength ?? 0, maxLength: Math.min(max, 200) }).filter(fits);
    }
  }

  private object(schema: Schema, hints: Hints, pointer: string): fc.Arbitrary<Record<string, unknown>> {
    const properties = schema.properties ?? {};
    const model = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, this.valid(property, hints, `${pointer}/${name}`)]),
    );
    return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
  }

  /** A value the schema refuses: a wrong type, a broken limit or format, or a broken object. */
  invalid(schema: Schema, hints: Hints = {}, pointer = ''): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    const arbitraries = this.violations(resolved);
    if (resolved.type === 'object' || resolved.properties) arbitraries.push(this.brokenObject(resolved, hints, pointer));
    return fc.oneof(...arbitraries);
  }

  /** Values that break one rule of the schema itself (not of its properties). */
  private violations(schema: Schema): fc.Arbitrary<unknown>[] {
    const allowed = new Set<string>();
    const collect = (s: Schema) => {
      const r = this.resolve(s);
      for (const branch of r.oneOf ?? r.anyOf ?? []) collect(branch);
      if (r.const !== undefined) allowed.add(r.const === null ? 'null' : typeof r.const);
      for (const type of r.type === undefined ? [] : Array.isArray(r.type) ? r.type : [r.type]) allowed.add(type);
    };
    collect(schema);
    if (allowed.has('integer')) allowed.add('number');
    const wrongTypes = JSON_TYPES.filter((t) => !allowed.has(t) && !(t === 'integer' && allowed.has('number')));
    const out: fc.Arbitrary<unknown>[] = [];
    const byType: Record<string, fc.Arbitrary<unknown>> = {
      string: anyString({ maxLength: 20 }),
      number: fc.double({ noNaN: true }),
      integer: fc.integer(),
      boolean: fc.boolean(),
      null: fc.constant(null),
      array: fc.array(fc.jsonValue(), { maxLength: 3 }),
      object: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }),
    };
    if (wrongTypes.length > 0) out.push(fc.oneof(...wrongTypes.map((t) => byType[t])));

    const strings = [schema, ...(schema.oneOf ?? schema.anyOf ?? []).map((b) => this.resolve(b))].filter(
      (s) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')),
    );
    for (const s of strings) {
      if (s.minLength) out.push(anyString({ maxLength: s.minLength - 1 }));
      if (s.maxLength !== undefined) {
        out.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 40 }).map((n) => 'x'.repeat(n)));
      }
      if (s.pattern || s.format) out.push(anyString({ minLength: 1, maxLength: 40 }));
      if (s.format === 'uuid')
        out.push(
          fc.uuid().map((u) => `${u}0`),
          fc.uuid().map((u) => u.replace(/-/g, '')),
        );
      if (s.format === 'date-time') out.push(dateTimeText());
      if (s.format === 'email') out.push(fc.constantFrom('a@', '@b.c', 'a b@c.d', 'a@b', 'joão@example..com'));
    }
    if (schema.enum) out.push(fc.string({ maxLength: 12 }).filter((s) => !schema.enum!.includes(s)));
    if (schema.const === true) out.push(fc.constantFrom(false, 'true', 1));
    if (schema.type === 'integer') {
      if (schema.minimum !== undefined) out.push(fc.integer({ min: schema.minimum - 1000, max: schema.minimum - 1 }));
      if (schema.maximum !== undefined) out.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1000 }));
      out.push(fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }));
    }
    return out.length > 0 ? out : [fc.constant(Symbol.for('unrepresentable'))];
  }

  /** A valid object with one property dropped, added or given a value its schema refuses. */
  private brokenObject(schema: Schema, hints: Hints, pointer: string): fc.Arbitrary<unknown> {
    const properties = Object.keys(schema.properties ?? {});
    const required = schema.required ?? [];
    const base = this.object(schema, hints, pointer);
    const mutations: fc.Arbitrary<unknown>[] = [];
    if (required.length > 0) {
      mutations.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([value, name]) => {
          const copy = { ...value };
          delete copy[name];
          return copy;
        }),
      );
    }
    if (schema.additionalProperties === false) {
      mutations.push(
        fc
          .tuple(base, fc.oneof(fc.constantFrom(...HOSTILE_NAMES), fc.string({ maxLength: 10 })), fc.jsonValue({ maxDepth: 2 }))
          .filter(([, name]) => !properties.includes(name))
          // defineProperty: `copy[name] = …` would set the prototype for "__proto__" instead of a key.
          .map(([value, name, extra]) =>
            Object.defineProperty({ ...value }, name, { value: extra, enumerable: true, writable: true, configurable: true }),
          ),
      );
    }
    if (properties.length > 0) {
      mutations.push(
        fc
          .constantFrom(...properties)
          .chain((name) => fc.tuple(base, fc.constant(name), this.invalid(schema.properties![name], hints, `${pointer}/${name}`)))
          .map(([value, name, wrong]) => ({ ...value, [name]: wrong })),
      );
    }
    if (typeof schema.additionalProperties === 'object') {
      // A map (metadata): an entry whose value its schema refuses.
      const entry = schema.additionalProperties;
      mutations.push(fc.tuple(base, this.invalid(entry, hints, `${pointer}/key`)).map(([value, wrong]) => ({ ...value, key: wrong })));
    }
    return fc.oneof(...mutations);
  }
}
